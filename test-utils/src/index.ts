// Helpers shared by the Vitest suites, the Playwright harness and the benchmarks: where the
// project's own tools live, free loopback ports, real processes that always stop, and one
// start-up for each real server (nginx, Apache, Caddy, Varnish, MinIO).

export { type LayoutViolations, layoutViolations } from './layout.ts'
export {
  freePort,
  GO_BIN,
  hasTool,
  REPO_ROOT,
  type RunningProcess,
  startProcess,
  tempDir,
  toolPath,
  waitForPort,
} from './process.ts'
export { type CollectedRun, type CollectOptions, runCollected } from './run.ts'
export { type RuntimeBinary, runtimeBinary } from './runtimes.ts'
export {
  APACHE_MODULES_DIR,
  type ApacheMainOptions,
  apacheCommand,
  apacheMainConfig,
  startApache,
} from './servers/apache.ts'
export { CADDY_GLOBAL_OPTIONS, caddyCommand, caddyGlobalOptions, startCaddy } from './servers/caddy.ts'
export type { StartOptions } from './servers/launch.ts'
export {
  checkServer,
  type LaunchOptions,
  launchServer,
  readServerLogs,
  type ServerCommand,
  type ServerRoot,
  type StartedServer,
  serverRoot,
} from './servers/launch.ts'
export { MINIO_SECRET, MINIO_USER, type Minio, type MinioOptions, startMinio } from './servers/minio.ts'
export {
  NGINX_BROTLI_MODULE,
  type NginxMainOptions,
  nginxCommand,
  nginxMainConfig,
  startNginx,
} from './servers/nginx.ts'
export { type StartedPreencodeServe, startPreencodeServe } from './servers/preencode-serve.ts'
export { type StartedVarnish, startVarnish, type VarnishOptions, varnishCommand } from './servers/varnish.ts'
