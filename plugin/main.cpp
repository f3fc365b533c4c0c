#include <cstddef>
#include <iostream>
#include <new>

#include "plugin/heap.h"
#include "plugin/plugin.h"

#ifdef HINTKIT_MIMALLOC
#include <mimalloc.h>

// mimalloc's own operator new aborts the process when memory runs out (its C build never sees
// a new_handler): these throw std::bad_alloc instead, which main reports as an error. Running
// out is what an address-space limit (`ulimit -v`) makes of a large enough input.
namespace {
void* allocate(std::size_t n) {
  if (void* p = mi_malloc(n)) return p;
  throw std::bad_alloc();
}
void* allocate(std::size_t n, std::align_val_t a) {
  if (void* p = mi_malloc_aligned(n, static_cast<std::size_t>(a))) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate(n, a); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return mi_malloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return mi_malloc(n); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return mi_malloc_aligned(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return mi_malloc_aligned(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { mi_free(p); }
void operator delete[](void* p) noexcept { mi_free(p); }
void operator delete(void* p, std::size_t) noexcept { mi_free(p); }
void operator delete[](void* p, std::size_t) noexcept { mi_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { mi_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { mi_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { mi_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { mi_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { mi_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { mi_free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { mi_free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { mi_free(p); }
#endif

// Before any other constructor allocates: the heap's first segments come from this arena.
__attribute__((constructor(101))) static void reserve_heap_arena() {
  hintkit::plugin::reserve_heap_arena();
}

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv, argv + argc);
  try {
    return hintkit::plugin::run(args, {std::cin, std::cout, std::cerr});
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    std::cerr << "hintkit: Error: out of memory: the input needs more memory than the process "
                 "may have (an address-space or memory limit)\n";
    return 2;
  }
}
