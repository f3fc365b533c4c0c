// The helmfile template check of `lint --config` on one realistic manifest (bench/data: a
// 130-line helmfile.yaml.gotmpl and its hint, as bench/gen_hint_tree.py makes them): Go
// template parsing alone, and parsing plus the reference check.
#include <benchmark/benchmark.h>

#include "fileio/fileio.h"
#include "gotmpl/gotmpl.h"
#include "hintfile/hintfile.h"
#include "tmplcheck/tmplcheck.h"
#include "yaml/yaml.h"

namespace {

std::string data_file(const char* name) {
  auto text =
      hintkit::fileio::read_file(std::string(HINTKIT_SOURCE_DIR "/bench/data/") + name, 1 << 20);
  if (!text.ok()) std::abort();
  return *text;
}

void BM_ParseTemplate(benchmark::State& state) {
  const std::string text = data_file("helmfile.yaml.gotmpl");
  hintkit::gotmpl::Options options;
  options.is_function = [](std::string_view) { return true; };
  for (auto _ : state) {
    auto tree = hintkit::gotmpl::parse(text, "helmfile.yaml.gotmpl", options);
    benchmark::DoNotOptimize(tree);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_ParseTemplate);

void BM_CheckTemplate(benchmark::State& state) {
  const std::string text = data_file("helmfile.yaml.gotmpl");
  hintkit::diag::Diagnostics load;
  auto hint = hintkit::hintfile::parse(data_file("tazuna.hint.yaml"), "tazuna.hint.yaml", load);
  for (auto _ : state) {
    hintkit::diag::Diagnostics diags;
    hintkit::tmplcheck::Usage usage;
    hintkit::tmplcheck::check_template(text, "helmfile.yaml.gotmpl", hint,
                                       hintkit::tmplcheck::Flavor::kTazuna, usage, diags);
    benchmark::DoNotOptimize(usage);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_CheckTemplate);

}  // namespace

BENCHMARK_MAIN();
