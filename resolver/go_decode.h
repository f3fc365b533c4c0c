// Internal: how tazuna turns a YAML scalar into a Go string field. tazuna decodes tazuna.yaml
// with sigs.k8s.io/yaml: go-yaml v2 resolves plain scalars the YAML 1.1 way, the result is
// converted to JSON, and a number or bool that lands in a `string` field (or is a map key)
// becomes its Go spelling: `0755` -> "493", `1.50` -> "1.5", `yes` -> "true", `0x1F` -> "31".
// Floats are spelled as Go's strconv.FormatFloat(f, 'g', -1, 32) spells them (float32
// precision: 3.14159265 -> "3.1415927"; 1e6 -> "1e+06").
#pragma once

#include <string>

#include "yaml/yaml.h"

namespace hintkit::resolver {

// A scalar as a Go string field receives it. Null gives "" (JSON null leaves a string unset).
std::string go_string(const yaml::Node& scalar);
// A scalar as a map key: like go_string, but infinities and NaN are spelled as YAML spells
// them (".inf", "-.inf", ".nan"), as sigs.k8s.io/yaml does for keys.
std::string go_key_string(const yaml::Node& scalar);
// strconv.FormatFloat(f, 'g', -1, 32).
std::string go_format_float32(double f);
// strconv.FormatFloat(f, 'g', -1, 64): also fmt's %v of a float64.
std::string go_format_float64(double f);

}  // namespace hintkit::resolver
