// Helpers shared by the Vitest suites, the Playwright harness and the benchmarks: where the
// project's own tools live, free loopback ports, real processes that always stop, and one
// start-up for each real server (nginx, Apache, Caddy, Varnish, MinIO).
export {
  freePort,
  GO_BIN,
  hasTool,
  REPO_ROOT,
  startProcess,
  tempDir,
  toolPath,
  waitForPort,
  type RunningProcess,
} from './process.ts'
export {
  checkServer,
  launchServer,
  readServerLogs,
  serverRoot,
  type LaunchOptions,
  type ServerCommand,
  type ServerRoot,
  type StartedServer,
} from './servers/launch.ts'
export {
  NGINX_BROTLI_MODULE,
  nginxCommand,
  nginxMainConfig,
  startNginx,
  type NginxMainOptions,
} from './servers/nginx.ts'
export {
  APACHE_MODULES_DIR,
  apacheCommand,
  apacheMainConfig,
  startApache,
  type ApacheMainOptions,
} from './servers/apache.ts'
export { CADDY_GLOBAL_OPTIONS, caddyCommand, caddyGlobalOptions, startCaddy } from './servers/caddy.ts'
export { startVarnish, varnishCommand, type StartedVarnish, type VarnishOptions } from './servers/varnish.ts'
export { MINIO_SECRET, MINIO_USER, startMinio, type Minio, type MinioOptions } from './servers/minio.ts'
export { startPreencodeServe, type StartedPreencodeServe } from './servers/preencode-serve.ts'
export type { StartOptions } from './servers/launch.ts'
export { runtimeBinary, type RuntimeBinary } from './runtimes.ts'
export { runCollected, type CollectedRun, type CollectOptions } from './run.ts'
export { layoutViolations, type LayoutViolations } from './layout.ts'
