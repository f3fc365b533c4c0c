#include "diag/stack.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
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

// What the child of the test below found; its exit status carries which check failed.
[[maybe_unused]] int deep_under_address_space_limit() {
  long pages = 0;
  std::ifstream("/proc/self/statm") >> pages;
  rlim_t used = static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE));
  // Room for about 256 MiB more: a quarter of the limit (what a stack may take) fits in it.
  rlimit lim{used + (rlim_t{256} << 20), used + (rlim_t{256} << 20)};
  if (setrlimit(RLIMIT_AS, &lim) != 0) return 10;
  size_t depth = 0;
  std::string why;
  run_with_big_stack([&] {
    depth = recurse(SIZE_MAX);
    why = stack_exhausted_reason();
  });
  unsigned mib = 0;
  if (std::sscanf(why.c_str(), "the %u MiB stack ran out", &mib) != 1) return 11;
  if (why.find("(the address-space limit, ulimit -v, leaves no room for a larger one)") ==
      std::string::npos)
    return 12;
  if (mib <= 8 || mib >= 1024) return 13;  // more than a thread's stack, less than the big one
  // The recursion used that stack, not the thread's own: most of it.
  if (depth * kFrameBytes < (size_t{mib} << 20) / 2) return 14;
  return 0;
}

// The sanitizers reserve terabytes of shadow memory: no address-space limit leaves them room.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HINTKIT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define HINTKIT_SANITIZED 1
#endif
#endif
#ifndef HINTKIT_SANITIZED
TEST(BigStack, UnderAnAddressSpaceLimitTakesTheLargestStackThatFitsAndSaysSo) {
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) _exit(deep_under_address_space_limit());
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}
#endif

}  // namespace
}  // namespace hintkit::diag
