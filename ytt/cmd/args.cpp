// ytt's command line for `hintkit values`, parsed the way ytt's flag library does
// (`--name value`, `--name=value`, `-f value`, `-fvalue`; unknown flags are errors).
//
// Every flag of ytt v0.48.0's `template` command is listed (pkg/cmd/template: cmd.go,
// regular_input.go, bulk_input.go, file_marks.go, data_values_flags.go). Those hintkit does
// not implement are refused with exit 2 naming the feature, never ignored: ignoring one would
// give output that differs from ytt's.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gocompat/gocompat.h"
#include "ytt/cmd/cmd.h"
#include "ytt/overlay/overlay.h"
#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::ytt {

namespace {

enum class FlagKind {
  kString,  // takes a value; a repeated flag keeps the last (or every, for arrays)
  kBool,    // no value, or `--name=BOOL` with Go's strconv.ParseBool spellings
  kSlice,   // takes a value that is split at commas, as pflag's StringSlice does
};

struct Flag {
  const char* name;
  char shorthand;
  FlagKind kind;
  // What the flag does, for the refusal when hintkit does not implement it; null: implemented.
  const char* unsupported;
};

constexpr Flag kFlags[] = {
    // regular_input.go
    {"file", 'f', FlagKind::kString, nullptr},
    {"output", 'o', FlagKind::kSlice, nullptr},
    {"dangerous-emptied-output-directory", 0, FlagKind::kString, nullptr},
    {"output-files", 0, FlagKind::kString, nullptr},
    {"dangerous-allow-all-symlink-destinations", 0, FlagKind::kBool, nullptr},
    {"allow-symlink-destination", 0, FlagKind::kSlice, nullptr},
    // data_values_flags.go
    {"data-values-file", 0, FlagKind::kString, nullptr},
    {"data-values-env", 0, FlagKind::kString, nullptr},
    {"data-values-env-yaml", 0, FlagKind::kString, nullptr},
    {"data-value", 'v', FlagKind::kString, nullptr},
    {"data-value-yaml", 0, FlagKind::kString, nullptr},
    {"data-value-file", 0, FlagKind::kString, nullptr},
    {"data-values-inspect", 0, FlagKind::kBool, nullptr},
    {"data-values-schema-inspect", 0, FlagKind::kBool, nullptr},
    {"dangerous-data-values-disable-validation", 0, FlagKind::kBool, nullptr},
    // cmd.go
    {"ignore-unknown-comments", 0, FlagKind::kBool, nullptr},
    {"implicit-map-key-overrides", 0, FlagKind::kBool, nullptr},
    {"strict", 's', FlagKind::kBool, nullptr},
    {"debug", 0, FlagKind::kBool, "debug output"},
    {"files-inspect", 0, FlagKind::kBool, nullptr},
    // bulk_input.go
    {"bulk-in", 0, FlagKind::kString, nullptr},
    {"bulk-out", 0, FlagKind::kBool, nullptr},
    // file_marks.go
    {"file-mark", 0, FlagKind::kString, nullptr},
    // cobra's own
    {"help", 'h', FlagKind::kBool, nullptr},
};

// ytt's `fmt` command (pkg/cmd/fmt.go).
constexpr Flag kFmtFlags[] = {
    {"file", 'f', FlagKind::kString, nullptr},
    {"strict", 's', FlagKind::kBool, nullptr},
    {"debug", 0, FlagKind::kBool, "debug output"},
    {"help", 'h', FlagKind::kBool, nullptr},
};

// ytt's commands besides its root (the template command, also `template` and its aliases
// `t`, `tpl`, kept for backwards compatibility), `fmt` and `help`.
constexpr std::string_view kOtherCommands[] = {"completion", "version", "website"};

// Whether cobra takes the word after `arg` as its value: a flag that is not a bool (cobra's
// hasNoOptDefVal, shortHasNoOptDefVal), written without `=`. An unknown flag takes one too.
bool takes_next_word(std::string_view arg, std::span<const Flag> flags) {
  if (arg.find('=') != std::string_view::npos) return false;
  const Flag* f = nullptr;
  if (arg.size() > 2 && arg.starts_with("--")) {
    for (const Flag& k : flags)
      if (arg.substr(2) == k.name) f = &k;
  } else if (arg.size() == 2 && arg[0] == '-') {
    for (const Flag& k : flags)
      if (k.shorthand != 0 && arg[1] == k.shorthand) f = &k;
  } else {
    return false;
  }
  return f == nullptr || f->kind != FlagKind::kBool;
}

// cobra's Find on ytt's root command: the first word that is neither a flag nor a flag's value
// (stripFlags) names the subcommand, if any; its first such occurrence is taken out of the
// arguments the subcommand parses (argsMinusFirstX).
std::optional<std::string> subcommand_of(const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;
    if (takes_next_word(a, kFlags)) {
      if (i + 2 >= args.size()) break;
      ++i;
    } else if (!a.empty() && a[0] != '-') {
      return a;
    }
  }
  return std::nullopt;
}

std::vector<std::string> without_first(const std::vector<std::string>& args,
                                       std::string_view word) {
  std::vector<std::string> out = args;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") break;
    if (takes_next_word(args[i], kFlags)) {
      ++i;
    } else if (args[i] == word) {
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  }
  return out;
}

// cobra's help command: `help [COMMAND]...` asks for the help of the command its words name
// (the root's for none, or for words that name no command); it takes no flag but -h.
bool parse_help(const std::vector<std::string>& args, Options& o, Outcome& usage) {
  const std::vector<std::string> words = without_first(args, "help");
  std::vector<std::string> topic;
  for (const std::string& w : words) {
    if (w == "-h" || w == "--help" || w.starts_with("--help=")) continue;
    if (w.size() > 1 && w[0] == '-') {
      usage.exit_code = 1;
      usage.err = w[1] == '-'
                      ? "Error: unknown flag: " + w.substr(0, w.find('=')) + "\n"
                      : std::string("Error: unknown shorthand flag: '") + w[1] + "' in " + w + "\n";
      return false;
    }
    topic.push_back(w);
  }
  const std::string_view first = topic.empty() ? std::string_view() : topic.front();
  for (std::string_view c : kOtherCommands) {
    if (first == c) {
      usage.exit_code = kExitUnsupported;
      usage.err = unsupported_text("ytt's `" + std::string(c) + "` command");
      return false;
    }
  }
  if (first == "fmt") o.command = Command::kFmt;
  o.help = true;
  return true;
}

// Go's strconv.ParseBool.
std::optional<bool> parse_go_bool(const std::string& s) {
  for (const char* t : {"1", "t", "T", "TRUE", "true", "True"})
    if (s == t) return true;
  for (const char* f : {"0", "f", "F", "FALSE", "false", "False"})
    if (s == f) return false;
  return std::nullopt;
}

// pflag's StringSlice reads its value as one record of Go's encoding/csv: fields split at
// commas, a field that starts with `"` quoted (`""` for a quote inside). Fills `out`, or
// returns the csv error as Go words it. A value on one line only (the caller checks).
std::optional<std::string> read_csv_record(const std::string& s, std::vector<std::string>& out) {
  auto error = [](size_t column, const char* what) {
    return "parse error on line 1, column " + std::to_string(column) + ": " + what;
  };
  static constexpr const char* kBareQuote = "bare \" in non-quoted-field";
  static constexpr const char* kQuote = "extraneous or missing \" in quoted-field";
  if (s.empty()) return std::nullopt;  // no fields at all
  size_t i = 0;
  while (true) {
    std::string field;
    if (i < s.size() && s[i] == '"') {
      ++i;
      while (true) {
        const size_t q = s.find('"', i);
        if (q == std::string::npos) return error(s.size() + 1, kQuote);  // never closed
        field += s.substr(i, q - i);
        i = q + 1;
        if (i < s.size() && s[i] == '"') {
          field += '"';
          ++i;
        } else if (i == s.size() || s[i] == ',') {
          break;
        } else {
          return error(i, kQuote);  // text after the closing quote (at that quote)
        }
      }
    } else {
      const size_t comma = s.find(',', i);
      field = s.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
      if (const size_t q = field.find('"'); q != std::string::npos) {
        return error(i + q + 1, kBareQuote);
      }
      i = comma == std::string::npos ? s.size() : comma;
    }
    out.push_back(std::move(field));
    if (i >= s.size()) return std::nullopt;
    ++i;  // the comma
    if (i == s.size()) {  // a trailing comma ends in an empty field
      out.emplace_back();
      return std::nullopt;
    }
  }
}

void apply(const Flag& f, const std::string& value, bool on, Options& o,
           std::vector<std::string>& outputs) {
  std::string_view n = f.name;
  if (n == "file")
    o.files.push_back(value);
  else if (n == "file-mark")
    o.file_marks.push_back(value);
  else if (n == "data-values-file")
    o.data_values_files.push_back(value);
  else if (n == "data-values-env")
    o.data_values_env.push_back(value);
  else if (n == "data-values-env-yaml")
    o.data_values_env_yaml.push_back(value);
  else if (n == "data-value")
    o.data_value.push_back(value);
  else if (n == "data-value-yaml")
    o.data_value_yaml.push_back(value);
  else if (n == "data-value-file")
    o.data_value_file.push_back(value);
  else if (n == "data-values-inspect")
    o.inspect = on;
  else if (n == "data-values-schema-inspect")
    o.schema_inspect = on;
  else if (n == "output")
    outputs.push_back(value);  // read as csv by parse_args
  else if (n == "dangerous-allow-all-symlink-destinations")
    o.allow_all_symlinks = on;
  else if (n == "allow-symlink-destination")
    o.allowed_symlink_destinations.push_back(value);
  else if (n == "dangerous-data-values-disable-validation")
    o.disable_validation = on;
  else if (n == "ignore-unknown-comments")
    o.ignore_unknown_comments = on;
  else if (n == "strict")
    o.strict = on;
  else if (n == "implicit-map-key-overrides")
    o.implicit_map_key_overrides = on;
  else if (n == "files-inspect")
    o.files_inspect = on;
  else if (n == "output-files")
    o.output_files = value;
  else if (n == "dangerous-emptied-output-directory")
    o.output_directory = value;
  else if (n == "bulk-in")
    o.bulk_in = value;
  else if (n == "bulk-out")
    o.bulk_out = on;
  else if (n == "help")
    o.help = on;
}

}  // namespace

std::string unsupported_text(std::string_view feature) {
  return "Error: hintkit values does not support " + std::string(feature) + "; use ytt for this\n";
}

std::vector<FlagName> implemented_flags() {
  std::vector<FlagName> out;
  for (const Flag& f : kFlags) {
    if (f.unsupported == nullptr) out.push_back({f.name, f.shorthand, f.kind != FlagKind::kBool});
  }
  return out;
}

namespace {

// One command's flags (`flags`), as pflag parses them; `command` names it in errors.
bool parse_flags(const std::vector<std::string>& args, std::span<const Flag> flags,
                 std::string_view command, Options& o, Outcome& usage) {
  auto fail = [&](const std::string& msg) {
    usage.exit_code = 1;
    usage.err = "Error: " + multi_line_error(msg) + "\n";  // ytt's main lays out every error
    return false;
  };
  std::string refused;  // the first refused feature; reported once the line has parsed
  auto refuse = [&](const Flag& f) {
    if (refused.empty()) refused = std::string(f.unsupported) + " (--" + f.name + ")";
  };
  std::vector<std::string> outputs;
  std::vector<std::string> positional;  // cobra collects them; ytt refuses them after parsing
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      positional.insert(positional.end(), args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
    const Flag* f = nullptr;
    std::string value, spelled;
    bool has_value = false;
    if (a.rfind("--", 0) == 0 && a.size() > 2) {
      std::string name = a.substr(2);
      if (size_t eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        has_value = true;
      }
      for (const auto& k : flags)
        if (name == k.name) f = &k;
      if (!f) return fail("unknown flag: --" + name);
      spelled = "--" + name;
    } else if (a.size() > 1 && a[0] == '-' && a[1] != '-') {
      char s = a[1];
      for (const auto& k : flags)
        if (k.shorthand && k.shorthand == s) f = &k;
      if (!f) return fail(std::string("unknown shorthand flag: '") + s + "' in " + a);
      value = a.substr(2);
      if (!value.empty() && value[0] == '=') value = value.substr(1);
      has_value = !value.empty();
      spelled = std::string("'") + s + "' in -" + s;
    } else {
      positional.push_back(a);
      continue;
    }
    bool on = true;
    if (f->kind == FlagKind::kBool) {
      if (has_value) {
        auto b = parse_go_bool(value);
        if (!b) {
          return fail("invalid argument \"" + value + "\" for \"" +
                      (f->shorthand ? std::string("-") + f->shorthand + ", " : std::string()) +
                      "--" + f->name + "\" flag: strconv.ParseBool: parsing \"" + value +
                      "\": invalid syntax");
        }
        on = *b;
      }
    } else if (!has_value) {
      if (i + 1 >= args.size()) return fail("flag needs an argument: " + spelled);
      value = args[++i];
    }
    if (f->unsupported) {
      if (f->kind != FlagKind::kBool || on) refuse(*f);
      continue;
    }
    if (f->kind == FlagKind::kSlice) {
      const std::string short_name =
          f->shorthand ? std::string("-") + f->shorthand : std::string("--") + f->name;
      if (value.find_first_of("\r\n") != std::string::npos) {
        usage.exit_code = kExitUnsupported;
        usage.err = unsupported_text("a " + short_name + " value spanning lines");
        return false;
      }
      std::vector<std::string> fields;
      if (auto err = read_csv_record(value, fields)) {
        return fail("invalid argument " + gocompat::quote(value) + " for \"" +
                    (f->shorthand ? std::string("-") + f->shorthand + ", " : std::string()) + "--" +
                    f->name + "\" flag: " + *err);
      }
      for (auto& t : fields) apply(*f, t, on, o, outputs);
      continue;
    }
    apply(*f, value, on, o, outputs);
  }
  if (!positional.empty()) {
    return fail("command '" + std::string(command) + "' does not accept extra arguments '" +
                positional[0] + "'");
  }
  // -o: ytt takes the file format (yaml, json, pos: the first given) and the schema type
  // (openapi-v3) from one list.
  bool format_set = false;
  for (const auto& t : outputs) {
    if (t == "openapi-v3") {
      o.output_openapi = true;
    } else if (t == "yaml" || t == "json" || t == "pos") {
      if (!format_set) o.output = t;
      format_set = true;
    } else {
      o.output = t;  // the engine reports it as ytt does
      o.output_empty_type = t.empty();
      o.output_openapi = false;
      break;
    }
  }
  if (!refused.empty()) {
    usage.exit_code = kExitUnsupported;
    usage.err = unsupported_text(refused);
    return false;
  }
  return true;
}

}  // namespace

bool parse_args(const std::vector<std::string>& args, Options& o, Outcome& usage) {
  const std::optional<std::string> command = subcommand_of(args);
  if (command == "fmt") {
    o.command = Command::kFmt;
    return parse_flags(without_first(args, "fmt"), kFmtFlags, "ytt fmt", o, usage);
  }
  if (command == "help") return parse_help(args, o, usage);
  if (command == "template" || command == "t" || command == "tpl") {
    return parse_flags(without_first(args, *command), kFlags, "ytt template", o, usage);
  }
  for (std::string_view c : kOtherCommands) {
    if (command == c) {
      usage.exit_code = kExitUnsupported;
      usage.err = unsupported_text("ytt's `" + std::string(c) + "` command");
      return false;
    }
  }
  return parse_flags(args, kFlags, "ytt", o, usage);
}

}  // namespace hintkit::ytt
