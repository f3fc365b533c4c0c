// Internal: `resolve --explain` output. Where each var's value came from (values file, a
// tazuna.yaml source, the hint's default, the zero value, passed through) and which checks
// ran on it. Values are printed only with --show-values: secrets travel here.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "resolver/resolver.h"

namespace hintkit::plugin {

struct ExplainOptions {
  std::string output = "text";  // text | json
  bool show_values = false;
  std::string provided_label = "values";  // what "provided" means here, e.g. "values.yaml"
  // Where a provided var came from when the value's position is not the whole story
  // (tazuna.yaml sources: "env CLUSTER_NAME", "op vault/item/field"); "" falls back to it.
  std::function<std::string(const std::string& var)> provided_source;
};

void write_explanation(std::ostream& out, const std::vector<resolver::VarExplanation>& vars,
                       const ExplainOptions& o);
// The JSON form, {"vars": [...]}, for callers that nest it (one per manifest).
yaml::Node explanation_node(const std::vector<resolver::VarExplanation>& vars,
                            const ExplainOptions& o);

}  // namespace hintkit::plugin
