// Stack headroom for deeply recursive code: `run_with_big_stack(work)` runs work on a stack
// large enough for recursion as deep as ytt's (Go grows its stacks up to 1 GB),
// and `stack_exhausted()` lets a recursive function stop with an error before it would
// overflow whatever stack it runs on.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace hintkit::diag {

// Reserved, not committed: only the pages a run touches cost memory. 1 GiB is Go's own cap,
// so a Starlark program recurses as deep here as it can in ytt.
inline constexpr size_t kBigStackBytes = size_t{1} << 30;
// Left free below the deepest recursion for error reporting, libraries and signal handlers.
inline constexpr size_t kStackReserveBytes = size_t{512} << 10;

// Runs `work` to completion on a `kBigStackBytes` stack and returns once it has ended (under an
// address-space limit, the largest stack that leaves the heap three quarters of it and can be
// mapped, down to 8 MiB);
// exceptions thrown by `work` reach the caller. The calling thread itself switches onto a
// freshly mapped stack and back (under ASan and TSan, which do not follow such a switch, a new
// thread with that stack runs `work` instead). When no such stack can be had (address space
// limits), `work` runs on the caller's stack, still guarded by `stack_exhausted()`. Nests.
void run_with_big_stack(const std::function<void()>& work);

// True when the calling thread has less than `kStackReserveBytes` of stack left.
bool stack_exhausted();

// Why `stack_exhausted()` stopped the work, for the error: the size of the stack that ran out,
// and when it is smaller than `kBigStackBytes`, why (an address-space limit, or no stack of its
// own could be mapped).
std::string stack_exhausted_reason();

}  // namespace hintkit::diag
