// ytt's DataValuesSchemaPreProcessing: a library's schema documents, each typed on its own,
// then merged (overlaid in file order, the caller's last) into the library's one schema.
#include "ytt/overlay/overlay.h"
#include "ytt/schema/schema.h"
#include "ytt/workspace/workspace.h"

namespace hintkit::ytt {

TypePtr DataValuesSchemaPreProcessing::apply(std::vector<EnvelopePtr>& for_libraries) const {
  std::vector<std::string> order;
  for (size_t i : schema_files) order.push_back(files.files[i].path);
  if (!schema_overlays.empty()) order.push_back("additional data value schema");
  const std::string head =
      "Overlaying data values schema (in following order: " + comma_list(order) + ")";
  const std::string stage = head + ":";
  // ytt's collectSchemaDocs: each file templated and checked, each of its schema documents
  // addressed (`@library/ref`) and typed on its own, before any is merged.
  std::vector<DDoc> docs;
  std::vector<TypePtr> types;
  for (size_t i : schema_files) {
    std::vector<DDoc> file_docs = eval(i, head);
    // The run's only schema document is read no more once typed (nothing is merged).
    size_t last_schema_doc = file_docs.size();
    for (size_t k = 0; k < file_docs.size(); ++k)
      if (file_docs[k].ann("data/values-schema")) last_schema_doc = k;
    const bool last_file = i == schema_files.back() && schema_overlays.empty();
    for (const auto& d : file_docs) {
      check_document_annotations(d);
      if (!d.ann("data/values-schema") && !doc_empty(d)) {
        const std::string& p = files.files[i].path;
        throw YttError{stage + " Templating file '" + p + "': Expected schema file '" + p +
                       "' to only have schema documents"};
      }
    }
    for (size_t k = 0; k < file_docs.size(); ++k) {
      DDoc& d = file_docs[k];
      if (!d.ann("data/values-schema")) continue;
      std::vector<LibraryRef> ref =
          with_context(stage + " ", [&] { return library_ref_of(d.anns); });
      const bool sole = last_file && k == last_schema_doc && docs.empty() && ref.empty();
      TypePtr t = with_context(stage, [&] {
        return sole ? infer_document(std::move(d), files) : infer_document(d, files);
      });
      if (!ref.empty()) {  // meant for a library this one uses
        auto e = std::make_shared<Envelope>();
        e->desc = "Schema belonging to library '" + library_ref_text(ref) + "' on line " +
                  pos_text(d.span);
        e->ref = std::move(ref);
        e->src.doc = std::move(d);
        for_libraries.push_back(std::move(e));
        continue;
      }
      types.push_back(std::move(t));
      docs.push_back(std::move(d));
    }
  }
  for (const auto& e : schema_overlays) {
    types.push_back(with_context(stage, [&] { return infer_document(e->src.doc, files); }));
    docs.push_back(e->src.doc);
  }
  if (docs.empty()) return nullptr;
  if (docs.size() == 1) return std::move(types[0]);
  types.clear();
  return with_context(stage, [&] {
    DDoc merged = docs[0];
    for (size_t k = 1; k < docs.size(); ++k) {
      overlay_document(merged.value, docs[k], thread, files, false, false, true, &merged.span);
    }
    return infer_document(merged, files);
  });
}

}  // namespace hintkit::ytt
