#include "diag/stack.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>

namespace hintkit::diag {
namespace {

constexpr size_t kFrameBytes = 1024;
// Deeper than any thread's default stack (8 MB), well within the big one; the tests stop
// there rather than touch the whole gigabyte.
constexpr size_t kDeepBytes = size_t{32} << 20;
constexpr size_t kDeepLevels = kDeepBytes / kFrameBytes;

// Recurses until `stack_exhausted()` says stop or `limit` levels, each level holding
// `kFrameBytes` of stack; returns how many levels it went.
[[gnu::noinline]] size_t recurse(size_t limit, size_t depth = 0) {
  char frame[kFrameBytes];
  frame[0] = static_cast<char>(depth);
  if (depth == limit || stack_exhausted()) return depth;
  size_t reached = recurse(limit, depth + 1);
  asm volatile("" : : "r"(frame) : "memory");  // the frame stays live across the call
  return reached;
}

TEST(BigStack, RecursesFarBeyondAThreadStack) {
  size_t depth = 0;
  run_with_big_stack([&] { depth = recurse(kDeepLevels); });
  EXPECT_EQ(depth, kDeepLevels);
}

TEST(BigStack, StopsBeforeOverflowingTheCallersOwnStack) {
  // After the big stack has been left, the check measures the thread's own stack again.
  run_with_big_stack([] {});
  size_t depth = recurse(kDeepLevels);
  EXPECT_GT(depth, 0u);
  EXPECT_LT(depth, kDeepLevels);
}

TEST(BigStack, ExceptionsReachTheCaller) {
  EXPECT_THROW(run_with_big_stack([] { throw std::runtime_error("from the big stack"); }),
               std::runtime_error);
}

TEST(BigStack, NestsAndRunsOnAnyThread) {
  size_t inner = 0;
  std::thread([&] {
    run_with_big_stack([&] {
      run_with_big_stack([&] { inner = recurse(kDeepLevels); });
      // Back on the outer big stack: still deep enough for another long recursion.
      EXPECT_EQ(recurse(kDeepLevels), kDeepLevels);
    });
  }).join();
  EXPECT_EQ(inner, kDeepLevels);
}

}  // namespace
}  // namespace hintkit::diag
