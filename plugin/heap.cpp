#include "plugin/heap.h"

#include <sys/mman.h>
#include <sys/resource.h>

#include <cstdint>

#ifdef HINTKIT_MIMALLOC
#include <mimalloc.h>
#endif

namespace hintkit::plugin {
namespace {

#if defined(HINTKIT_MIMALLOC) && MI_MALLOC_VERSION >= 200 && MI_MALLOC_VERSION < 300 && \
    defined(MADV_HUGEPAGE)
#define HINTKIT_HEAP_ARENA 1
// mimalloc 2.x hands out arena memory in blocks of one segment (32 MiB), aligned to it.
constexpr size_t kSegmentBytes = size_t{32} << 20;
// The main thread's segment and those of the threads that read YAML ahead (ytt/workspace/workspace.h)
// and in halves (yaml::load_split): later segments come from the OS as before.
constexpr size_t kArenaSegments = 4;

void* arena = nullptr;
size_t arena_bytes = 0;
#endif

}  // namespace

void reserve_heap_arena() {
#ifdef HINTKIT_HEAP_ARENA
  if (arena != nullptr) return;
  rlimit lim{};
  if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY) return;
  const size_t bytes = kArenaSegments * kSegmentBytes;
  // One segment more than needed, so that an aligned start lies inside.
  void* p = mmap(nullptr, bytes + kSegmentBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return;
  const uintptr_t start = reinterpret_cast<uintptr_t>(p);
  const uintptr_t aligned = (start + kSegmentBytes - 1) & ~(uintptr_t{kSegmentBytes} - 1);
  // Give back the unaligned head and tail.
  if (aligned > start) munmap(p, aligned - start);
  const uintptr_t end = aligned + bytes;
  const uintptr_t mapped_end = start + bytes + kSegmentBytes;
  if (mapped_end > end) munmap(reinterpret_cast<void*>(end), mapped_end - end);
  // Fresh anonymous memory: committed (the kernel backs it on first touch) and zero.
  if (!mi_manage_os_memory(reinterpret_cast<void*>(aligned), bytes, /*is_committed=*/true,
                           /*is_large=*/false, /*is_zero=*/true, /*numa_node=*/-1)) {
    munmap(reinterpret_cast<void*>(aligned), bytes);
    return;
  }
  arena = reinterpret_cast<void*>(aligned);
  arena_bytes = bytes;
#endif
}

void prefer_huge_pages() {
#ifdef HINTKIT_HEAP_ARENA
  if (arena != nullptr) madvise(arena, arena_bytes, MADV_HUGEPAGE);
#endif
}

}  // namespace hintkit::plugin
