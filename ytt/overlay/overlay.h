// overlay: ytt's pkg/yttlibrary/overlay, one engine for data values, schema documents, document
// overlays on template output and `overlay.apply`. Start at `overlay_document` (one annotated
// document onto another) and `overlay_output` (ytt's overlay post-processing of templates'
// output); `overlay_module` is the `@ytt:overlay` struct whose matchers and functions the
// annotations evaluate. Inside, the engine is laid out as ytt's package is, one file per ytt
// file; the internal header op.h says where to start.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ytt/files/files.h"
#include "ytt/template/template.h"
#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::ytt {

// How data values documents differ from ytt's plain overlay.
struct OverlayMode {
  bool plain = false;              // --data-values-file: arrays and values of another kind replace
  bool carry_validations = false;  // merged items take the right item's validation rules
  // The caller lets go of the right document: its nodes that only it holds are released as
  // soon as they are merged (see Op::apply), so it and the result are not held whole at once.
  bool release_right = false;
};

// An overlay failure: ytt's flat message ("Overlaying (in following order: b.yml): Document on
// line b.yml:3: Expected ..."), laid out for printing by `multi_line_error`.
struct OverlayError {
  std::string message;
  bool unsupported = false;  // a case hintkit refuses (exit 2) rather than answer differently
};

// Overlays `right` (an annotated doc) onto `left` in place. Throws YttError with ytt's text.
// `left_span`: where the left document is (named by match errors; replaced when an operation
// on the document puts another in its place). `release_right`: OverlayMode::release_right
// (the caller reads `right` no more).
void overlay_document(DPtr& left, const DDoc& right, sl::Thread& thread, const Files& files,
                      bool default_missing_ok = false, bool plain = false,
                      bool schema_merge = false, diag::Span* left_span = nullptr,
                      bool release_right = false);

// ytt's overlay post-processing: applies `overlays` (documents annotated `@overlay/match`, in
// file order; `overlay_files` names their files) to the documents of `sets` (one set per
// template file). Throws OverlayError.
void overlay_output(std::vector<std::vector<DDoc>>& sets, const std::vector<DDoc>& overlays,
                    const std::vector<std::string>& overlay_files, sl::Thread& thread,
                    const Files& files);

// The `overlay` struct of `@ytt:overlay`.
sl::Value overlay_module(const Files& files);

}  // namespace hintkit::ytt
