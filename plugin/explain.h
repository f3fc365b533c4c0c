// Internal: `resolve --explain` output. Where each var's value came from (values file, a
// tazuna.yaml source, the hint's default, the zero value, passed through) and which checks
// ran on it. Values are printed only with --show-values: secrets travel here.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "resolver/resolver.h"

namespace hintkit::plugin {

// `source_of(name)` may describe a provided var's source ("env CLUSTER_NAME"); "" means the
// value's own position is the whole story.
struct ExplainOptions {
  std::string output = "text";  // text | json
  bool show_values = false;
  std::string provided_label = "values";  // what "provided" means here, e.g. "values.yaml"
};

void write_explanation(std::ostream& out, const std::vector<resolver::VarExplanation>& vars,
                       const ExplainOptions& o);

}  // namespace hintkit::plugin
