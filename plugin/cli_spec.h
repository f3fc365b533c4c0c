// Internal: the command line as plain data, read off the CLI11 definitions in cli.cpp
// (`cli_spec()`), so the shell completion scripts (completion.cpp) and the man page
// (man_page.cpp) are generated from the same definitions as `--help` and cannot drift.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace hintkit::plugin {

// What a shell offers for an option's value or a positional argument.
enum class ValueKind {
  kNone,    // a flag: takes no value
  kText,    // free text: nothing to offer
  kFile,    // a file
  kDir,     // a folder
  kPath,    // a file or a folder
  kChoice,  // one of `choices`
};

struct OptionSpec {
  std::vector<std::string> names;  // long names first ("--format"), then short ("-f"); a
                                   // positional has its one name without dashes ("paths")
  std::string description;
  ValueKind kind = ValueKind::kNone;
  std::vector<std::string> choices;  // kChoice: the closed set, in --help's order
  std::string value_name;            // "FILE", "DIR", "PATH", "N", ... (empty for a flag)
  std::string default_value;         // as --help shows it; empty when none
  bool repeatable = false;
  bool required = false;
  bool positional() const { return !names.empty() && names[0][0] != '-'; }
};

struct CommandSpec {
  std::string name;
  std::string summary;  // one line
  std::string footer;   // --help's text after the options: details, examples, exit codes
  std::vector<OptionSpec> options;      // without --help, which every command has
  std::vector<OptionSpec> positionals;  // in order
  // `values`: ytt's flags, parsed by the command itself; `options` lists them for completion.
  bool passes_arguments_through = false;
};

struct CliSpec {
  std::string name;         // "hintkit"
  std::string version;      // "0.1.0"
  std::string description;  // --help's opening paragraph
  std::vector<OptionSpec> global;  // --color, --version (not --help)
  std::vector<CommandSpec> commands;  // as --help lists them; hidden commands left out
};

// The spec of hintkit's command line, from the CLI11 definitions (cli.cpp).
CliSpec cli_spec();

// `hintkit completion SHELL`: a completion script for bash, zsh or fish. False for another
// shell name.
bool write_completion(std::ostream& out, const CliSpec& spec, std::string_view shell);
inline constexpr std::string_view kCompletionShells[] = {"bash", "zsh", "fish"};

// The man page (roff, man(7) macros), every command with its options and --help's footer.
void write_man_page(std::ostream& out, const CliSpec& spec);

}  // namespace hintkit::plugin
