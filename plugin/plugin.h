// The hintkit command line: the only `main()` of the project lives in main.cpp and calls
// `run()`; cli.cpp wires the subcommands with CLI11 (their options are in commands.h). Where
// each one lives:
//   lint, resolve           lint.cpp, resolve.cpp; with --config, tazuna_commands.cpp
//   hook                    hook.cpp (helmfile's presync/prepare hook)
//   describe, schema        describe.cpp
//   lsp                     the lsp module (lsp::serve)
//   completion              completion.cpp (and man_page.cpp for the hidden man page command)
//   version                 cli.cpp
//   values                  values_command.cpp (ytt's flags, parsed by ytt/cmd)
// CLI11 stays inside this module; Boost.Asio (parallel.h) is used only here and in lsp/.
//
// Exit codes everywhere: 0 clean, 1 findings, 2 usage / I/O / internal error.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace hintkit::plugin {

inline constexpr int kExitClean = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitUsage = 2;

// `--color`: auto colours text diagnostics only on a terminal (see plugin/terminal.h).
enum class ColorMode { kAuto, kAlways, kNever };

struct Io {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  ColorMode color = ColorMode::kAuto;
};

// Runs the command line `args` (args[0] is the program name).
int run(const std::vector<std::string>& args, Io io);

std::string version();

}  // namespace hintkit::plugin
