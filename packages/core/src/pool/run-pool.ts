/**
 * Runs `task` over `items` with at most `concurrency` in flight. On the first failure no new
 * task starts; the ones in flight finish, then the first error is thrown. A deploy must not
 * leave uploads running behind an error it already reported. (Deploy targets and verify use it;
 * the compression pool is `WorkPool`, which also bounds bytes.)
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0
  let failure: { error: unknown } | undefined
  const worker = async (): Promise<void> => {
    while (!failure && next < items.length) {
      const index = next++
      try {
        await task(items[index]!, index)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker))
  if (failure) throw failure.error
}
