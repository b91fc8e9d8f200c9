/**
 * SERVICE_MALLOC_ENV is how every kcm-bus service is started (the local stack, the tests, the benchmarks, the
 * Dockerfiles): glibc's malloc with fixed thresholds instead of its dynamic ones. Node's buffers (Kafka fetch
 * responses of megabytes, the replay of a partition) come from malloc; once such a block is freed, glibc raises
 * its mmap threshold to the block's size, so later ones come from the brk heap, whose freed middle it keeps
 * resident. Measured in S6 (1,000 → 10,000 pods): reconciler-rc's brk heap grew 9-12 MB without these and 3 MB
 * with them. The values are glibc's own defaults (128 KiB), fixed: mallopt(M_MMAP_THRESHOLD) and M_TRIM_THRESHOLD.
 * glibc reads them at process start, so the launcher sets them; a service cannot.
 */
export const SERVICE_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};
