// schema: ytt's pkg/schema. A `#@data/values-schema` document becomes a type per node
// (`SType`, built by `infer_document` in infer.cpp) with its default value; data values are
// checked against it and filled with its defaults (`check_and_fill`), problems worded and laid
// out as ytt's schema errors (`SchemaError`, rendered once by `render` in errors.cpp).
// openapi.cpp: `--data-values-schema-inspect -o openapi-v3`.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "types/types.h"
#include "ytt/files/files.h"
#include "ytt/validations/validations.h"
#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::ytt {

// `@schema/title|desc|deprecated|examples` of a type. Most types have none, so a type holds
// these out of line (a large schema has tens of thousands of types).
struct TypeDocs {
  std::optional<std::string> title, desc;
  std::optional<std::string> deprecated;
  std::vector<std::pair<std::string, DPtr>> examples;
};

// A ytt schema type (one per schema node), built by infer.cpp: the shared checker's
// `types::Type` (kind, nullable, fields, item, where it was declared), so data values are
// checked by `types::check_each`, plus what only the engine needs. Its fields' and item's
// types are `SType`s too: `of()` reaches them. `any=True` is kind kAny; a map's fields are
// keyed by their `checker_key` spelling, with each key as written in `key(i)`.
struct SType final : types::Type, TypeRules {
  SType() { origin = this; }
  SType(const SType&) = delete;  // `origin` points at this object
  SType& operator=(const SType&) = delete;

  // kMap: each field's key as the schema writes it, kept only when some key is not what
  // `string_scalar(fields[i].key)` makes (a quoted, non-string or code-made key); a schema's
  // keys are mostly plain strings, spelled once in `fields`. Read them with `key(i)`.
  yaml::SparseVector<Scalar> keys;
  DPtr default_value;                   // the default (null for nullable)
  yaml::SparseVector<Ann> validations;  // its @schema/validation (most types have none)
  std::unique_ptr<TypeDocs> docs;       // null when the schema documents nothing

  bool any() const { return kind == types::Kind::kAny; }  // @schema/type any=True
  // The SType behind a type of a schema's tree (a field's or item's type).
  static const SType& of(const types::Type& t) { return *static_cast<const SType*>(t.origin); }
  const SType& field_type(size_t i) const { return of(fields[i].type()); }
  const SType* item_type() const { return item ? &of(*item) : nullptr; }
  Scalar key(size_t i) const { return keys.empty() ? string_scalar(fields[i].key) : keys[i]; }
  // Position of `key` in `fields` (keys compare by `checker_key`), or -1.
  using types::Type::field_index;
  long field_index(const Scalar& key) const;
  const SType* field(const Scalar& key) const;
  void add_field(Scalar key, std::shared_ptr<const SType> type);
  TypeDocs& edit_docs() {
    if (!docs) docs = std::make_unique<TypeDocs>();
    return *docs;
  }

  // What validations ask of the type (validations.h).
  const Ann* rule() const override { return validations.empty() ? nullptr : &validations.back(); }
  bool accepts_any() const override { return any(); }
  const TypeRules* field_rules(const Scalar& key) const override {
    return kind == types::Kind::kMap ? field(key) : nullptr;
  }
  const TypeRules* item_rules() const override {
    return kind == types::Kind::kArray ? item_type() : nullptr;
  }
};
using TypePtr = std::shared_ptr<SType>;

// Builds the type of a (merged) schema document. Throws YttError.
TypePtr infer_document(const DDoc& doc, const Files& files);
// The same for a document no one reads afterwards: its map nodes that nothing else holds
// become the type's defaults in place (values replaced by defaults, annotations dropped)
// instead of being copied, so a large schema's tree is not held twice. `doc` is left holding
// the default value.
TypePtr infer_document(DDoc&& doc, const Files& files);
// A fresh copy of a type's default value.
DPtr default_of(const SType& t);
// A type mismatch in data values as ytt words it (found / expected / by, and a hint).
struct TypeProblem {
  diag::Span at;
  std::string file_label;  // "values.yaml" / "(data-value arg)"
  bool unknown_key = false;
  std::string found, expected;
  diag::Span by;
  std::string hint;
};
// Checks `value` against `type` with the shared checker in ytt's two passes
// (`types::check_each`, `types::Order::kShapesFirst`), appending each mismatch to `problems`
// as ytt words and places it; only when there is none, fills defaults into `value` in place
// (missing map keys appended, array items filled). `doc`: where the document holding `value`
// is (a mismatch of the whole value is reported there); by default the value's own place.
void check_and_fill(DPtr& value, const SType& type, std::vector<TypeProblem>& problems,
                    const diag::Span* doc = nullptr);


// One block of a schema error (ytt's `schemaAssertionError`): where (the node and the
// annotations that concern it), what was found, what was expected, and hints.
struct SchemaAssertion {
  std::vector<diag::Span> ann_positions = {};  // shown before the node's line, sorted by line
  diag::Span position = {};                    // the node
  std::string description = {};                // a line above the excerpt, may be empty
  std::string found = {};
  std::string expected = {};
  std::vector<std::string> hints = {};
  diag::Span by = {};  // where the expected type is declared, when known
};

// A whole schema error (ytt's `schemaError`): a summary with its underline, the blocks, and
// the text of other errors it wraps (each followed by " \n").
struct SchemaError {
  std::string summary = {};
  std::vector<SchemaAssertion> failures = {};
  std::string misc = {};
};

// The error's text exactly as ytt prints it (the one place schema errors are rendered).
std::string render(const Files& files, const SchemaError& e);
// The error's blocks as problems, one per block at the node it shows (Outcome::problems).
std::vector<Problem> problems_of(const Files& files, const SchemaError& e);
// Stops the run with `e` (after the stage's "...: ").
[[noreturn]] void throw_schema(const Files& files, const SchemaError& e);

// A type mismatch the checker found, as one block: `at` is the annotation (default, example)
// whose value was checked, if any; its place is added to `found` as ` (at|by X)`.
SchemaAssertion assertion_of(const TypeProblem& p, const diag::Span* at = nullptr,
                             std::string_view at_word = "at");

// `--data-values-schema-inspect -o openapi-v3`: the schema as ytt's OpenAPI document, made
// in memory except for the schema's own values (defaults, examples), which keep their places
// for `-o pos`; `openapi_text` prints it as YAML, or as JSON with `json`.
DDoc openapi_document(const TypePtr& type);
std::string openapi_text(const TypePtr& type, bool json);

}  // namespace hintkit::ytt
