// How go-yaml v2 words the YAML errors ytt prints.
#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::schema {

std::string go_yaml_error(const diag::Diagnostic& d, std::string_view text,
                          bool through_ytt_parser) {
  switch (yaml::error_kind(d)) {
    case yaml::ErrorKind::kUnsupportedLineBreak:
      // ytt reads on; its values and lines would differ from ours.
      throw Unsupported{
          "YAML with CR (without LF), NEL, LS or PS line breaks (U+000D, U+0085, U+2028, U+2029)"};
    case yaml::ErrorKind::kUnsupportedFlowColon:
      throw Unsupported{"YAML with a ':' and text right after '?', an anchor or a tag in [] or {}"};
    case yaml::ErrorKind::kUnsupportedNelNbspEscape:
      throw Unsupported{"YAML with the escapes \\N or \\_ in double-quoted text"};
    case yaml::ErrorKind::kUnsupportedEmptyExplicitKey:
      throw Unsupported{"YAML with an empty key after a '?' key indicator"};
    case yaml::ErrorKind::kUnsupportedFlowEntryLines:
      throw Unsupported{"YAML flow map entries without ':' that end on a later line"};
    case yaml::ErrorKind::kUnsupportedAnchorName:
      // go-yaml ends the name earlier than our parser does; the trees would differ.
      throw Unsupported{"YAML anchor or alias names followed by ':', '?', '%', '@' or '`'"};
    case yaml::ErrorKind::kIncompatibleYamlVersion:
      // ytt's parser (files, flag values and yaml.decode alike) puts a `---` line before a
      // text that does not start with one and takes one off the line go-yaml names; on the
      // text's first line that leaves line 0, where ytt crashes.
      if (d.span.begin.line == 1) {
        throw Unsupported{"a %YAML directive other than 1.1 on a file's first line (ytt crashes)"};
      }
      return yaml::go_yaml_message(d, text, through_ytt_parser);
    case yaml::ErrorKind::kNone:
      // Limits (HK003) and problems found after loading: our words at go-yaml's place.
      return d.span.begin.line > 0
                 ? "yaml: line " + std::to_string(d.span.begin.line) + ": " + d.message
                 : "yaml: " + d.message;
    default:
      // Every error kind of the loader: go-yaml's words, which the yaml module owns.
      return yaml::go_yaml_message(d, text, through_ytt_parser);
  }
}
}  // namespace hintkit::schema
