// Internal: ytt's error blocks ("Invalid schema - ..." with found/expected/hints).
#pragma once

#include <string>
#include <vector>

#include "schema/internal.h"

namespace hintkit::schema {

struct SchemaProblem {
  std::string title;    // after "Invalid schema - "; empty: "Invalid schema"
  std::string summary;  // a line before the excerpt, may be empty
  std::string file;
  std::vector<int> lines;
  std::string found, expected;
  std::vector<std::string> hints;
  // ytt reports some problems as a block inside an outer "Invalid schema" error, which ends
  // the inner block with an extra " \n" line.
  bool nested = false;
};

std::string schema_problem_text(const Files& files, const SchemaProblem& p);
[[noreturn]] void throw_schema(const Files& files, SchemaProblem p);

}  // namespace hintkit::schema
