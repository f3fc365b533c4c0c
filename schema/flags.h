// The names of the ytt flags `hintkit values` implements (schema/args.cpp), for the CLI's
// shell completion; parse_args in schema.h reads them.
#pragma once

#include <string>
#include <vector>

namespace hintkit::schema {

struct FlagName {
  std::string name;    // "data-values-file"
  char shorthand = 0;  // 'f', or 0
  bool takes_value = false;
};

// Refused flags are left out: completion offers only what works.
std::vector<FlagName> implemented_flags();

}  // namespace hintkit::schema
