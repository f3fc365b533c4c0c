// The hintkit command line: the only `main()` of the project lives in main.cpp and calls
// `run()`. Subcommands: `lint`, `resolve`, `describe` (one file each: lint.cpp, resolve.cpp,
// describe.cpp); cli.cpp wires them with CLI11. CLI11 and Boost.Asio stay inside this module.
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
