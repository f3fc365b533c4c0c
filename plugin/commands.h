// Internal: the subcommands' options and entry points, shared by cli.cpp and their own files.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "diag/diag.h"
#include "plugin/plugin.h"

namespace hintkit::plugin {

struct LintOptions {
  std::vector<std::string> paths;
  std::string format = "text";
  bool warnings_as_errors = false;
  unsigned jobs = 0;  // 0: hardware threads
};
int run_lint(const LintOptions& o, Io io);

struct ResolveOptions {
  std::string dir;
  std::string hint;
  std::string values;
  std::string output = "yaml";
  std::string format = "text";
};
int run_resolve(const ResolveOptions& o, Io io);

struct DescribeOptions {
  std::string target;
  std::string output = "text";
};
int run_describe(const DescribeOptions& o, Io io);

// "dir" + "tazuna.hint.yaml" without a leading "./" so messages name files as users do.
std::string join_file(const std::string& dir, std::string_view name);

// Prints an operation failure as `hintkit: message` and returns kExitUsage.
int fail(Io io, const std::string& message);

}  // namespace hintkit::plugin
