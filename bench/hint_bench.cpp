// In-process cost of the hint pipeline: parse+check a 20-var hint, resolve values against
// it. Whole-process figures (lint of 10,000 files, resolve incl. start-up) come from
// scripts/bench.sh.
#include <benchmark/benchmark.h>

#include <string>

#include "hintfile/hintfile.h"
#include "resolver/resolver.h"

namespace {

std::string hint_text(int vars) {
  std::string s = "apiVersion: tazuna.pepabo.com/v1\nkind: TazunaHint\nvars:\n";
  for (int v = 0; v < vars; ++v) {
    s += "  var" + std::to_string(v) + ":\n";
    switch (v % 4) {
      case 0:
        s += "    type: string\n    required: true\n    description: a var\n";
        break;
      case 1:
        s += "    type: string\n    format: hostname\n    default: a.example.com\n";
        break;
      case 2:
        s += "    type: slice\n";
        break;
      default:
        s += "    type: map\n    required_with: [var0]\n";
        break;
    }
  }
  return s + "rules:\n  - type: oneof_required\n    vars: [var0, var1]\n";
}

std::string values_text(int vars) {
  std::string s;
  for (int v = 0; v < vars; ++v) {
    switch (v % 4) {
      case 0:
        s += "var" + std::to_string(v) + ": x\n";
        break;
      case 1:
        s += "var" + std::to_string(v) + ": h" + std::to_string(v) + ".example.com\n";
        break;
      case 2:
        s += "var" + std::to_string(v) + ": [a]\n";
        break;
      default:
        s += "var" + std::to_string(v) + ": {k: v}\n";
        break;
    }
  }
  return s;
}

void BM_ParseHint(benchmark::State& state) {
  const std::string text = hint_text(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    hintkit::diag::Diagnostics d;
    auto h = hintkit::hintfile::parse(text, "tazuna.hint.yaml", d);
    benchmark::DoNotOptimize(h);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseHint)->Arg(20)->Arg(200);

void BM_Resolve(benchmark::State& state) {
  const int vars = static_cast<int>(state.range(0));
  hintkit::diag::Diagnostics d;
  auto hint = hintkit::hintfile::parse(hint_text(vars), "tazuna.hint.yaml", d);
  auto docs = hintkit::yaml::load(values_text(vars), "values.yaml", d);
  for (auto _ : state) {
    hintkit::diag::Diagnostics rd;
    auto out = hintkit::resolver::resolve(&hint, docs[0].root, rd);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_Resolve)->Arg(20)->Arg(200);

}  // namespace

BENCHMARK_MAIN();
