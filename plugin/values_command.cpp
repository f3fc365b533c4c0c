// `hintkit values ...`: the ytt-compatible Data Values Schema engine with ytt's own flags.
#include <filesystem>
#include <memory>
#include <ostream>
#include <vector>

#include "plugin/commands.h"
#include "plugin/heap.h"
#include "ytt/cmd/cmd.h"

#ifdef HINTKIT_MIMALLOC
#include <mimalloc.h>
#endif

extern char** environ;

namespace hintkit::plugin {
namespace {

const char* kValuesHelp =
    "Data values schema engine, compatible with ytt v0.48.0: same files, flags, output bytes,\n"
    "error text and exit codes as `ytt` for schemas, data values, templates and overlays.\n\n"
    "Usage: hintkit values -f FILE [-f FILE]... [flags]\n"
    "       hintkit values fmt -f FILE [-s]       (ytt's fmt: see hintkit values help fmt)\n\n"
    "Input:\n"
    "  -f, --file FILE                      schema, data values or template file or folder,\n"
    "                                       - for standard input (repeatable)\n"
    "  --file-mark PATTERN:KEY=VALUE        exclude, rename or retype input files (repeatable)\n"
    "  -s, --strict                         read YAML as ytt's strict subset\n"
    "  --ignore-unknown-comments            let templates hold plain # comments\n"
    "  --implicit-map-key-overrides         a repeated map key replaces the earlier item\n"
    "  --allow-symlink-destination PATH     read symlinked inputs whose destination is in PATH\n"
    "  --dangerous-allow-all-symlink-destinations  read every symlinked input\n"
    "  --bulk-in JSON                       the input files as one JSON text instead of -f:\n"
    "                                       {\"files\": [{\"name\": \"a.yml\", \"data\": "
    "\"...\"}]}\n\n"
    "Data values (applied in ytt's fixed order after the #@data/values documents):\n"
    "  --data-values-file FILE              a plain YAML file (or folder) of data values\n"
    "  --data-values-env PREFIX             env vars PREFIX_key=value (strings)\n"
    "  --data-values-env-yaml PREFIX        env vars PREFIX_key=yaml\n"
    "  -v, --data-value key=value           one value, always a string\n"
    "  --data-value-yaml key=yaml           one value, parsed as YAML\n"
    "  --data-value-file key=path           one value, the file's contents\n"
    "  --dangerous-data-values-disable-validation  skip the validations\n\n"
    "Output:\n"
    "  -o, --output yaml|json|pos|openapi-v3  output format (pos: each node's file and line)\n"
    "  --data-values-inspect                print the final data values\n"
    "  --data-values-schema-inspect         print the schema (-o openapi-v3)\n"
    "  --files-inspect                      print the files that would be processed\n"
    "  --output-files DIR                   write the output files below DIR\n"
    "  --dangerous-emptied-output-directory DIR  empty DIR, then write them there\n"
    "  --bulk-out                           print the output files, or the error, as one JSON\n"
    "                                       text of --bulk-in's format (exit 0 either way)\n"
    "  -h, --help                           this help\n\n"
    "Examples:\n"
    "  hintkit values -f schema.yaml -f values.yaml --data-values-inspect\n"
    "  hintkit values -f schema.yaml --data-value-yaml replicas=3 --data-values-inspect -o json\n"
    "  hintkit values -f schema.yaml --data-values-schema-inspect -o openapi-v3\n"
    "  hintkit values -f config/ --output-files out/\n"
    "  hintkit values --bulk-in '{\"files\":[{\"name\":\"a.yml\",\"data\":\"a: 1\"}]}' "
    "--bulk-out\n\n"
    "Exit: 0 success, 1 an error ytt reports (usage, YAML, schema, data values, templates), 2\n"
    "what hintkit does not do (the error names it; use ytt for it).\n";

const char* kFmtHelp =
    "Format YAML files as ytt's `fmt` command does (ytt v0.48.0): block style, two spaces a\n"
    "level, a comment on its node's line after the node, other comments on lines of their\n"
    "own above it. The YAML files of the inputs (`.yml`, `.yaml`; a folder's files sorted by\n"
    "path) are printed one after another to standard output.\n\n"
    "Usage: hintkit values fmt -f FILE [-f FILE]... [flags]\n\n"
    "Flags:\n"
    "  -f, --file FILE    file or folder to format, - for standard input (repeatable)\n"
    "  -s, --strict       read the files as ytt's strict YAML subset\n"
    "  -h, --help         this help\n\n"
    "Examples:\n"
    "  hintkit values fmt -f config.yml\n"
    "  hintkit values fmt -f templates/ > formatted.yml\n\n"
    "Exit: 0 success, 1 a file that is not YAML, 2 what hintkit does not do (the error names "
    "it).\n";

}  // namespace

std::string values_help() { return kValuesHelp; }

namespace {

// The engine's trees stay allocated until the process exits: this command is the last thing
// the process does, and the OS reclaims the memory at once where freeing node by node takes
// tens of milliseconds on large inputs. Reachable from a static, so leak checkers stay quiet.
void keep_until_exit(std::shared_ptr<void> state) {
  static auto* kept = new std::vector<std::shared_ptr<void>>();
  if (state) kept->push_back(std::move(state));
}

// Inputs up to this size get huge pages (plugin/heap.h). Measured (CPU time, best of 40 runs):
// the overlay benchmark at N=1000 (170 KB) 28% less CPU for 2 MB more memory (12.9 -> 14.9
// MB); the values benchmark at N=1600 (1.3 MB) 28% less for 7 MB more (39 -> 46 MB), memory
// that a run that size should not spend.
constexpr uintmax_t kHugePagesMaxInputBytes = uintmax_t{1} << 20;

// The bytes of the inputs (-f, or --bulk-in's text in its place, and --data-values-file; a
// folder's files counted as they are walked), or kHugePagesMaxInputBytes + 1 once that is
// passed or something cannot be sized.
uintmax_t input_bytes(const ytt::Options& o) {
  uintmax_t total = o.bulk_in.size();
  auto add = [&](const std::filesystem::path& p) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      for (auto it = std::filesystem::recursive_directory_iterator(p, ec);
           !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec)) total += it->file_size(ec);
        if (ec || total > kHugePagesMaxInputBytes) break;
      }
    } else {
      total += std::filesystem::file_size(p, ec);
    }
    if (ec) total = kHugePagesMaxInputBytes + 1;
  };
  const std::vector<std::string> none;
  for (const auto* list : {o.bulk_in.empty() ? &o.files : &none, &o.data_values_files}) {
    for (const std::string& f : *list) {
      if (total > kHugePagesMaxInputBytes) return total;
      std::error_code ec;
      // `-f name=path` names a file; a path that itself holds '=' is taken whole first.
      const size_t eq = f.find('=');
      if (eq != std::string::npos && !std::filesystem::exists(f, ec)) {
        add(f.substr(eq + 1));
      } else {
        add(f);
      }
    }
  }
  return total;
}

}  // namespace

int run_values(const std::vector<std::string>& args, Io io) {
  ytt::Options options;
  ytt::Outcome outcome;
  if (!ytt::parse_args(args, options, outcome)) {
    io.err << "hintkit: " << outcome.err;
    return outcome.exit_code;
  }
  if (options.help) {
    io.out << (options.command == ytt::Command::kFmt ? kFmtHelp : kValuesHelp);
    return kExitClean;
  }
  for (char** e = environ; e && *e; ++e) options.environment.emplace_back(*e);
  options.free_at_end = false;
  if (input_bytes(options) <= kHugePagesMaxInputBytes) prefer_huge_pages();
#ifdef HINTKIT_MIMALLOC
  // Memory that the loading thread allocated and this thread freed is reusable here only
  // after mimalloc reclaims the ended thread's segments; without this, one run in ten peaked
  // 18 MB higher (73.9 MB against 55.9 MB on the N=1600 benchmark).
  options.after_loading_thread = [] { mi_collect(true); };
#endif
  outcome = ytt::run(options);
  keep_until_exit(std::move(outcome.retained));
  io.out << outcome.out;
  if (!outcome.err.empty()) {
    // Starlark print() output comes first; the error line carries the program name.
    size_t at = outcome.err.find("Error: ");
    if (outcome.exit_code != 0 && at != std::string::npos) {
      io.err << outcome.err.substr(0, at) << "hintkit: " << outcome.err.substr(at);
    } else {
      io.err << outcome.err;
    }
  }
  io.out.flush();
  return outcome.exit_code;
}

}  // namespace hintkit::plugin
