// Cost of `yaml::load` (go-yaml's reader and the tree), for (a) a 1.2 KB hint file
// shaped like `bench/gen_hint_tree.py 1 OUT 20` writes and (b) a ~2 MB generated config
// document, and (c) the ytt workload that `gen-schema-workload.py N DIR` writes, when
// HINTKIT_YAML_WORKLOAD=DIR is set (skipped otherwise). Reports MB/s (bytes_per_second) and, where
// the kernel lets a process count its own user-space instructions (perf_event_paranoid <= 2),
// `instr/byte`.
//
//   ./build-fast/bench/yaml_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "yaml/internal.h"
#include "yaml/yaml.h"

namespace {


// Counts user-space instructions of this thread; inert when perf events are unavailable.
class InstructionCounter {
 public:
  InstructionCounter() {
    perf_event_attr attr;
    std::memset(&attr, 0, sizeof(attr));
    attr.type = PERF_TYPE_HARDWARE;
    attr.size = sizeof(attr);
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    fd_ = static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
  }
  ~InstructionCounter() {
    if (fd_ >= 0) close(fd_);
  }
  bool ok() const { return fd_ >= 0; }
  void start() {
    if (fd_ < 0) return;
    ioctl(fd_, PERF_EVENT_IOC_RESET, 0);
    ioctl(fd_, PERF_EVENT_IOC_ENABLE, 0);
  }
  uint64_t stop() {
    if (fd_ < 0) return 0;
    ioctl(fd_, PERF_EVENT_IOC_DISABLE, 0);
    uint64_t n = 0;
    if (read(fd_, &n, sizeof(n)) != static_cast<ssize_t>(sizeof(n))) return 0;
    return n;
  }

 private:
  int fd_ = -1;
};

// What gen_hint_tree.py's hint(20) writes.
std::string hint_text() {
  static const char* const kFormats[] = {"hostname", "url",  "email",  "ip",
                                         "cidr",     "uuid", "semver", "datetime"};
  std::string s = "apiVersion: tazuna.pepabo.com/v1\nkind: TazunaHint\nvars:\n";
  for (int v = 0; v < 20; ++v) {
    std::string n = std::to_string(v);
    s += "  var" + n + ":\n";
    switch (v % 5) {
      case 0:
        s += "    type: string\n    required: true\n    description: Var " + n + "\n";
        break;
      case 1:
        s += "    type: string\n    format: " + std::string(kFormats[v % 8]) + "\n";
        break;
      case 2:
        s += "    type: slice\n";
        break;
      case 3:
        s += "    type: map\n    required_with: [var" + std::to_string(v - 3) + "]\n";
        break;
      default:
        s += "    type: string\n    default: \"d" + n + "\"\n    required_without: [var" +
             std::to_string(v - 4) + "]\n";
        break;
    }
  }
  s += "rules:\n  - type: oneof_required\n    vars: [var0, var1]\n"
       "    message: set var0 or var1\n";
  return s;
}

// A ~2 MB config: a list of service entries with nested maps, lists, flow collections,
// quoted strings, numbers, bools, block scalars and comments.
std::string config_text() {
  std::string s = "# generated service catalogue\napiVersion: v1\nservices:\n";
  for (int i = 0; s.size() < (2u << 20); ++i) {
    std::string n = std::to_string(i);
    s += "  - name: service-" + n + "\n";
    s += "    # owned by team " + std::to_string(i % 17) + "\n";
    s += "    namespace: ns-" + std::to_string(i % 13) + "\n";
    s += "    replicas: " + std::to_string(1 + i % 5) + "\n";
    s += "    enabled: " + std::string(i % 3 ? "true" : "false") + "\n";
    s += "    image: \"registry.example.com/team/service-" + n + ":v1." + std::to_string(i % 9) +
         "\"\n";
    s += "    ports: [8080, 8443]\n";
    s += "    labels: {app: service-" + n + ", tier: backend}\n";
    s += "    resources:\n      limits:\n        cpu: 500m\n        memory: 256Mi\n";
    s += "    env:\n";
    for (int e = 0; e < 3; ++e) {
      s += "    - name: VAR_" + std::to_string(e) + "\n      value: 'value " + std::to_string(e) +
           "'\n";
    }
    s += "    ratio: 0." + std::to_string(i % 100) + "\n";
    s += "    script: |\n      echo start " + n + "\n      run --port 8080\n";
  }
  return s;
}

void run(benchmark::State& state, const std::string& text) {
  hintkit::yaml::LoadOptions options;
  InstructionCounter counter;
  uint64_t instructions = 0;
  for (auto _ : state) {
    hintkit::diag::Diagnostics diags;
    bool whole = false;
    counter.start();
    auto docs = hintkit::yaml::internal::load_with(text, "bench.yaml", diags, options, &whole);
    instructions += counter.stop();
    benchmark::DoNotOptimize(docs);
    if (!whole) {
      state.SkipWithError("the reader stopped before the end of the input");
      break;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(text.size()));
  state.counters["bytes"] = static_cast<double>(text.size());
  if (counter.ok() && state.iterations() > 0) {
    state.counters["instr/byte"] =
        static_cast<double>(instructions) /
        (static_cast<double>(state.iterations()) * static_cast<double>(text.size()));
  }
}

// The reader alone: go-yaml's scanner and parser handing every event to a handler that only
// counts them (no tree), as "reading throughput".
class CountingHandler : public hintkit::yaml::internal::EventHandler {
 public:
  using Mark = hintkit::yaml::internal::Mark;
  using AnchorId = hintkit::yaml::internal::AnchorId;
  void OnDocumentStart(const Mark&, bool) override { ++events; }
  void OnDocumentEnd() override { ++events; }
  void OnNull(const Mark&, AnchorId) override { ++events; }
  void OnAlias(const Mark&, AnchorId) override { ++events; }
  void OnScalarView(const Mark&, const std::string&, AnchorId, std::string_view v,
                    hintkit::yaml::Style) override {
    ++events;
    bytes += v.size();
  }
  void OnSequenceStart(const Mark&, const std::string&, AnchorId, bool) override { ++events; }
  void OnSequenceEnd() override { ++events; }
  void OnMapStart(const Mark&, const std::string&, AnchorId, bool) override { ++events; }
  void OnMapEnd() override { ++events; }
  size_t events = 0;
  size_t bytes = 0;
};

void read_only(benchmark::State& state, const std::string& text) {
  size_t events = 0;
  for (auto _ : state) {
    CountingHandler h;
    if (!hintkit::yaml::internal::go_yaml_read(text, h, hintkit::yaml::internal::GoYaml::kV2_4,
                                               false)) {
      state.SkipWithError("the reader stopped before the end of the input");
      break;
    }
    events = h.events;
    benchmark::DoNotOptimize(h.bytes);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(text.size()));
  state.counters["events"] = static_cast<double>(events);
}

void BM_ReadHint(benchmark::State& state) {
  static const std::string text = hint_text();
  read_only(state, text);
}
void BM_ReadConfig(benchmark::State& state) {
  static const std::string text = config_text();
  read_only(state, text);
}

void BM_Hint(benchmark::State& state) {
  static const std::string text = hint_text();
  run(state, text);
}
void BM_Config(benchmark::State& state) {
  static const std::string text = config_text();
  run(state, text);
}

// A workload file from $HINTKIT_YAML_WORKLOAD, or "" when unset or unreadable.
std::string workload_text(const char* name) {
  const char* dir = std::getenv("HINTKIT_YAML_WORKLOAD");
  if (dir == nullptr) return {};
  std::ifstream f(std::string(dir) + "/" + name, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void run_workload(benchmark::State& state, const char* name) {
  static const std::string values = workload_text("values.yaml");
  static const std::string schema = workload_text("schema.yaml");
  const std::string& text = std::string_view(name) == "values.yaml" ? values : schema;
  if (text.empty()) {
    state.SkipWithError("set HINTKIT_YAML_WORKLOAD to a gen-schema-workload.py output folder");
    return;
  }
  InstructionCounter counter;
  uint64_t instructions = 0;
  for (auto _ : state) {
    hintkit::diag::Diagnostics diags;
    counter.start();
    {
      auto docs = hintkit::yaml::load(text, name, diags);  // default options, as `values` loads
      benchmark::DoNotOptimize(docs);
    }  // freeing the tree is counted too: the program pays for it
    instructions += counter.stop();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(text.size()));
  if (counter.ok() && state.iterations() > 0) {
    state.counters["instr/byte"] =
        static_cast<double>(instructions) /
        (static_cast<double>(state.iterations()) * static_cast<double>(text.size()));
  }
}

void BM_WorkloadValues(benchmark::State& state) { run_workload(state, "values.yaml"); }
void BM_WorkloadSchema(benchmark::State& state) { run_workload(state, "schema.yaml"); }

BENCHMARK(BM_ReadHint);
BENCHMARK(BM_ReadConfig)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Hint);
BENCHMARK(BM_Config)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WorkloadValues)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WorkloadSchema)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
