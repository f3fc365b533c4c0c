// ytt's DataValuesPreProcessing: a library's data values documents, in file order, then the
// flags' and its caller's, each overlaid onto the values so far (the schema's defaults to
// start with) and type-checked after every step.
#include "ytt/overlay/overlay.h"
#include "ytt/schema/schema.h"
#include "ytt/workspace/workspace.h"

namespace hintkit::ytt {

namespace {

// ytt's Envelope of a data values document addressed to another library (`@library/ref`).
EnvelopePtr library_envelope(DDoc&& d, std::vector<LibraryRef> ref, const std::string& path) {
  auto e = std::make_shared<Envelope>();
  e->desc =
      "Data Value belonging to library '" + library_ref_text(ref) + "' on line " + pos_text(d.span);
  e->ref = std::move(ref);
  for (const auto& a : d.anns) {
    for (const auto& [name, v] : a.kwargs) {
      if (a.name == "data/values" && name == "after_library_module") {
        e->after_library_module = v.as_bool();
      }
    }
  }
  e->src = {std::move(d), false, false, path};
  return e;
}

// Type errors ytt cannot report as it reports the others: it crashes, or quotes a Go pointer.
void refuse_unreportable(const std::vector<TypeProblem>& problems, const ValuesSource& src) {
  for (const auto& p : problems) {
    if (is_no_position(p.at)) {
      throw Unsupported{
          "a type error on a map a data value flag builds for its key path (ytt crashes)"};
    }
    if (is_unprintable_memory(p.at)) {
      throw Unsupported{
          "a type error on a map or array given to library.with_data_values (ytt quotes "
          "a Go pointer)"};
    }
    // The document itself is at an unknown place, which ytt shows as such; a map or
    // array in its place has no position at all, on which ytt crashes.
    if (src.in_memory && p.at.file.empty() && !memory_line(p.at) &&
        (p.found == "map" || p.found == "array")) {
      throw Unsupported{"type errors in values given to library.with_data_values"};
    }
  }
}

}  // namespace

void DataValuesPreProcessing::apply(DataValues& values, std::vector<EnvelopePtr>& for_libraries) {
  std::vector<std::string> order;
  for (size_t i : values_files) order.push_back(files.files[i].path);
  if (!values_overlays.empty()) order.push_back("additional data values");
  const std::string head = "Overlaying data values (in following order: " + comma_list(order) + ")";
  const std::string stage = head + ":";
  // ytt's collectDataValuesDocs: each file templated and checked, each of its data values
  // documents addressed to a library or to this one, before any is overlaid.
  for (size_t i : values_files) {
    std::vector<DDoc> docs = eval(i, head);
    const std::string& p = files.files[i].path;
    for (const auto& d : docs) {
      if (!d.ann("data/values") && !doc_empty(d)) {
        throw YttError{stage + " Templating file '" + p + "': Expected data values file '" + p +
                       "' to only have data values documents"};
      }
    }
    for (auto& d : docs) {
      check_document_annotations(d);
      if (!d.ann("data/values")) continue;
      std::vector<LibraryRef> ref =
          with_context(stage + " ", [&] { return data_values_library_ref(d.anns); });
      if (!ref.empty()) {  // meant for a library this one uses
        for_libraries.push_back(library_envelope(std::move(d), std::move(ref), p));
        continue;
      }
      values.docs.push_back({std::move(d), false, false, p});
    }
  }
  for (auto& src : values_overlays) values.docs.push_back(std::move(src));
  for (auto& src : values.docs) overlay_and_check(values, src, stage);
  if (!values.value) values.value = make_node(yaml::Kind::kMap);
}

// One document overlaid onto the values, then ytt's typeAndCheck of the result.
void DataValuesPreProcessing::overlay_and_check(DataValues& values, ValuesSource& src,
                                                const std::string& stage) {
  if (!schema && !values.value) {
    // Without a schema the first document is the start: its own rules stay with it.
    values.anns = &src.doc.anns;
    values.span = src.doc.span;
  }
  with_context(stage, [&] {
    overlay_document(values.value, src.doc, thread, files, src.missing_ok, src.plain, false,
                     &values.span, /*release_right=*/true);
  });
  // A plain file's document that replaced the whole value is where ytt then points.
  if (src.plain && values.value == src.doc.value) values.span = src.doc.span;
  // The document now lives on in `values` where it was merged: holding it as well would
  // keep every node the overlay copied alive twice (and make the defaults below copy).
  src.doc.value.reset();
  if (!schema) return;
  std::vector<TypeProblem> problems;
  check_and_fill(values.value, *schema, problems, &values.span);
  if (problems.empty()) return;
  refuse_unreportable(problems, src);
  SchemaError e{.summary = "One or more data values were invalid"};
  for (const auto& p : problems) e.failures.push_back(assertion_of(p));
  // ytt's newline after the text
  throw YttError{stage + " " + render(files, e) + "\n", 1, {}, problems_of(files, e)};
}

}  // namespace hintkit::ytt
