// yamlfmt: ytt's pkg/yamlfmt, the printer behind `ytt fmt` (`hintkit values fmt`). A YAML file
// is read as ytt's parser reads it, every comment kept where that parser attaches it, and
// printed again: block style, two spaces a level, a comment on its node's line after it,
// others on lines of their own above their node, set apart by a blank line.
#pragma once

#include <string>

#include "ytt/files/files.h"

namespace hintkit::ytt {

// `file` formatted as ytt's yamlfmt.Printer prints it; `strict`: ytt's strict YAML (-s).
// Throws YttError with go-yaml's text for a file that is not YAML, Unsupported where ytt
// crashes (a multi-line key or document value at the top level).
std::string format_yaml_file(const SourceFile& file, bool strict);

}  // namespace hintkit::ytt
