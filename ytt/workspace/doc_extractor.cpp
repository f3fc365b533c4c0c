// ytt's DocExtractor: which documents carry `@data/values` or `@data/values-schema`, and the
// refusal of those annotations anywhere but on a document.
#include "ytt/workspace/workspace.h"

namespace hintkit::ytt {

namespace {

// How often `text` writes `#@name` followed by a space, a tab or the end of its line: never
// less often than annotations named `name` occur in it (a name runs to a space or a tab).
size_t written_annotations(std::string_view text, std::string_view name) {
  const std::string written = "#@" + std::string(name);
  size_t count = 0;
  for (size_t at = text.find(written); at != std::string_view::npos;
       at = text.find(written, at + 1)) {
    size_t after = at + written.size();
    if (after == text.size() ||
        std::string_view(" \t\r\n").find(text[after]) != std::string_view::npos) {
      ++count;
    }
  }
  return count;
}

[[noreturn]] void refuse_on_item(const std::string& name, const char* what, const diag::Span& at) {
  throw YttError{"Found @" + name + " on " + what + " (" + pos_text(at) +
                 "); only documents (---) can be annotated with @" + name};
}

void check_not_on_items(const yaml::Node& n, const std::string& name) {
  for (const auto& it : n.items) {
    for (const auto& a : it.annotations)
      if (a.name == name) refuse_on_item(name, "map item", it.span);
    check_not_on_items(it.value, name);
  }
  for (const auto& el : n.elements) {
    for (const auto& a : el.annotations)
      if (a.name == name) refuse_on_item(name, "array item", el.span);
    check_not_on_items(el, name);
  }
}

}  // namespace

bool annotated_documents(const LoadedYaml& file, std::string_view text, const std::string& name) {
  if (!file.has_marker) return false;  // no "#@" in the text: no annotation anywhere
  size_t on_documents = 0;
  for (const auto& d : file.docs) {
    for (const auto& a : d.annotations) on_documents += a.name == name;
  }
  // Every `@name` in the file is on a document when the text writes it no more often.
  if (written_annotations(text, name) > on_documents) {
    for (const auto& d : file.docs) check_not_on_items(d.root, name);
  }
  bool found = false;
  for (const auto& d : file.docs) {
    int count = 0;
    for (const auto& a : d.annotations) count += a.name == name;
    if (count > 1) throw YttError{name + " annotation may only be used once per document"};
    found = found || count == 1;
  }
  return found;
}

void check_document_annotations(const DDoc& d) {
  if (!d.value) return;
  for (const auto& e : d.value->entries) {
    for (const auto& a : e.anns) {
      if (a.name == "data/values-schema" || a.name == "data/values") {
        refuse_on_item(a.name, d.value->is_map() ? "map item" : "array item", e.span);
      }
    }
  }
}

}  // namespace hintkit::ytt
