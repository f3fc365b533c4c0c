// Cost of `hintkit values` (ytt::run) on an in-memory copy of the shared bench workload
// (`../shared/bench/gen-schema-workload.py`: N services, named rules, one custom rule each,
// arrays of maps with defaults to fill), and of `yaml::load` on the same two texts, so the
// loader's share of a run can be read off. The texts are generated here, written once to a
// temporary directory (ytt::run reads files by path), and each iteration runs
//   values -f schema.yaml -f values.yaml --data-values-inspect
// The `read_whole` counter is 1 when yaml::load's reader took both texts to the end.
// BM_OverlayOutput runs the overlay workload of scripts/bench_overlays.sh the same way.
//
//   ./build-perf/bench/values_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "ytt/cmd/cmd.h"
#include "yaml/internal.h"
#include "yaml/yaml.h"

namespace {

namespace fs = std::filesystem;

// The same texts gen-schema-workload.py writes for `n` services.
std::string schema_text(int n) {
  std::string s = "#@data/values-schema\n---\nservices:\n";
  for (int i = 0; i < n; ++i) {
    const std::string name = "svc" + std::to_string(i);
    s += "  " + name + ":\n";
    s += "    #@schema/validation min_len=1, max_len=63\n";
    s += "    name: \"" + name + "\"\n";
    s += "    #@schema/validation min=1, max=100\n    replicas: 1\n";
    s += "    #@schema/validation one_of=[\"debug\",\"info\",\"warn\"]\n    logLevel: info\n";
    s += "    enabled: true\n    ratio: 0.5\n";
    s += "    #@schema/validation (\"a multiple of 1024\", lambda v: v % 1024 == 0)\n";
    s += "    quota: 1024\n";
    s += "    ports:\n    - name: \"\"\n      #@schema/validation min=1, max=65535\n      port: "
         "80\n";
    s += "    labels:\n    - \"\"\n";
  }
  return s;
}

std::string values_text(int n) {
  std::string s = "#@data/values\n---\nservices:\n";
  for (int i = 0; i < n; ++i) {
    s += "  svc" + std::to_string(i) + ":\n";
    s += "    replicas: " + std::to_string(1 + (i * 37 + 17) % 100) + "\n";
    s += "    ports:\n";
    for (int p = 0; p < 10; ++p) {
      s += "    - name: p" + std::to_string(p) + "\n      port: " + std::to_string(1000 + p) + "\n";
    }
    s += "    labels: [a, b, c]\n";
  }
  return s;
}

struct Workload {
  std::string schema, values;
  fs::path dir;
};

const Workload& workload(int n) {
  static std::map<int, Workload> cache;
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  Workload w{schema_text(n), values_text(n), {}};
  w.dir = fs::temp_directory_path() /
          ("hk-values-bench-" + std::to_string(getpid()) + "-" + std::to_string(n));
  fs::create_directories(w.dir);
  std::ofstream(w.dir / "schema.yaml") << w.schema;
  std::ofstream(w.dir / "values.yaml") << w.values;
  return cache.emplace(n, std::move(w)).first->second;
}

void BM_ValuesInspect(benchmark::State& state) {
  const Workload& w = workload(static_cast<int>(state.range(0)));
  hintkit::ytt::Options o;
  o.files = {(w.dir / "schema.yaml").string(), (w.dir / "values.yaml").string()};
  o.inspect = true;
  size_t out_bytes = 0;
  for (auto _ : state) {
    hintkit::ytt::Outcome r = hintkit::ytt::run(o);
    if (r.exit_code != 0) {
      state.SkipWithError(r.err.c_str());
      break;
    }
    out_bytes = r.out.size();
    benchmark::DoNotOptimize(r.out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(w.schema.size() + w.values.size()));
  state.counters["out_bytes"] = static_cast<double>(out_bytes);
}
BENCHMARK(BM_ValuesInspect)->Arg(100)->Arg(400)->Arg(1600)->Unit(benchmark::kMillisecond);

// The loader alone on both texts, as the templating step loads them (comments kept off).
void BM_LoadWorkload(benchmark::State& state) {
  const Workload& w = workload(static_cast<int>(state.range(0)));
  bool fast_schema = false, fast_values = false;
  for (auto _ : state) {
    hintkit::diag::Diagnostics d;
    auto a = hintkit::yaml::internal::load_with(w.schema, "schema.yaml", d, {}, &fast_schema);
    auto b = hintkit::yaml::internal::load_with(w.values, "values.yaml", d, {}, &fast_values);
    benchmark::DoNotOptimize(a.data());
    benchmark::DoNotOptimize(b.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(w.schema.size() + w.values.size()));
  state.counters["read_whole"] = fast_schema && fast_values ? 1 : 0;
}
BENCHMARK(BM_LoadWorkload)->Arg(100)->Arg(400)->Arg(1600)->Unit(benchmark::kMillisecond);

// The overlay workload of bench/gen_overlay_workload.py (scripts/bench_overlays.sh): `n` plain
// documents and four document overlays over them, as
//   values -f base.yml -f overlay.yml
std::string overlay_base_text(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    const std::string k = std::to_string(i);
    if (i > 0) s += "---\n";
    switch (i % 3) {
      case 0:
        s += "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-" + k +
             "\n  labels:\n    app: app-" + k +
             "\nspec:\n  replicas: " + std::to_string(1 + i % 5) +
             "\n  template:\n    spec:\n      containers:\n      - name: web\n        image: "
             "nginx:1." +
             std::to_string(i % 20) +
             "\n        ports:\n        - containerPort: 8080\n      - name: sidecar\n        "
             "image: envoy:1." +
             std::to_string(i % 7) + "\n";
        break;
      case 1:
        s += "apiVersion: v1\nkind: Service\nmetadata:\n  name: app-" + k +
             "\nspec:\n  selector:\n    app: app-" + std::to_string(i - 1) +
             "\n  ports:\n  - port: 80\n    targetPort: 8080\n";
        break;
      default:
        s += "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg-" + k +
             "\ndata:\n  key: value-" + k + "\n";
    }
  }
  return s;
}

constexpr const char* kOverlayText = R"(#@ load("@ytt:overlay", "overlay")
#@overlay/match by=overlay.all, expects="1+"
---
metadata:
  #@overlay/match missing_ok=True
  labels:
    #@overlay/match missing_ok=True
    team: platform
#@overlay/match by=overlay.subset({"kind": "Deployment"}), expects="1+"
---
spec:
  template:
    spec:
      containers:
      #@overlay/match by="name"
      - name: web
        image: nginx:stable
      #@overlay/append
      - name: logger
        image: fluent-bit:2
#@overlay/match by=lambda i, left, right: left["kind"] == "Service", expects="1+"
---
spec:
  #@overlay/replace via=lambda left, right: [dict(port=443, targetPort=p["targetPort"]) for p in left]
  ports: []
#@overlay/match by=overlay.subset({"kind": "ConfigMap"}), expects="0+"
#@overlay/remove
---
)";

void BM_OverlayOutput(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  static std::map<int, fs::path> dirs;
  fs::path& dir = dirs[n];
  if (dir.empty()) {
    dir = fs::temp_directory_path() /
          ("hk-overlay-bench-" + std::to_string(getpid()) + "-" + std::to_string(n));
    fs::create_directories(dir);
    std::ofstream(dir / "base.yml") << overlay_base_text(n);
    std::ofstream(dir / "overlay.yml") << kOverlayText;
  }
  hintkit::ytt::Options o;
  o.files = {(dir / "base.yml").string(), (dir / "overlay.yml").string()};
  size_t out_bytes = 0;
  for (auto _ : state) {
    hintkit::ytt::Outcome r = hintkit::ytt::run(o);
    if (r.exit_code != 0) {
      state.SkipWithError(r.err.c_str());
      break;
    }
    out_bytes = r.out.size();
    benchmark::DoNotOptimize(r.out.data());
  }
  state.counters["out_bytes"] = static_cast<double>(out_bytes);
}
BENCHMARK(BM_OverlayOutput)->Arg(1000)->Arg(4000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
