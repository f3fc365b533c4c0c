// The interpreter on two classic workloads: a 10^6-iteration loop with arithmetic and a
// recursive fib(25). scripts/bench_starlark.sh runs the same code through ytt for comparison.
#include <benchmark/benchmark.h>

#include "starlark/starlark.h"

namespace {

constexpr const char* kLoop = R"(
def loop(n):
  total = 0
  for i in range(n):
    total = (total + i * 3) % 1000003
  end
  return total
end
result = loop(1000000)
)";

constexpr const char* kFib = R"(
def fib(n):
  if n < 2:
    return n
  end
  return fib(n - 1) + fib(n - 2)
end
result = fib(25)
)";

void run(benchmark::State& state, const char* source, int64_t want) {
  auto program = hintkit::starlark::compile("bench.star", source);
  if (!program.ok()) {
    state.SkipWithError(program.error().to_string().c_str());
    return;
  }
  hintkit::starlark::ThreadOptions options;
  options.limits.max_steps = int64_t{1} << 40;  // measure, don't stop
  for (auto _ : state) {
    hintkit::starlark::Thread thread(options);
    auto module = thread.exec(*program);
    if (!module.ok()) {
      state.SkipWithError(module.error().to_string().c_str());
      return;
    }
    auto result = module->get("result");
    if (!result || result->to_int64() != want) {
      state.SkipWithError("wrong result");
      return;
    }
  }
}

void BM_Loop1e6(benchmark::State& state) { run(state, kLoop, 18); }
void BM_Fib25(benchmark::State& state) { run(state, kFib, 75025); }
BENCHMARK(BM_Loop1e6)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Fib25)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
