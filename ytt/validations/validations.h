// validations: ytt's pkg/validations, the rules of `@schema/validation` and `@assert/validate`
// run over the final data values. Start at `validate_values` (validate.cpp): a pre-order walk
// of the values that runs each value's schema rule, then the `@assert/validate` rules left on
// it. `validation_args_problem` checks an annotation's arguments as ytt does (the schema
// checks its own annotations with it when it is built).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ytt/files/files.h"
#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::ytt {

// What the validations need of a schema type as they walk the values: its rule, whether any
// value goes below it, and the types of a map's fields and an array's items (ytt's schema puts
// its rules on the nodes it types; here the walk asks the type at each step instead).
class TypeRules {
 public:
  virtual const Ann* rule() const = 0;  // the type's `@schema/validation`, or null
  virtual bool accepts_any() const = 0;  // `@schema/type any=True`: no rules below
  // A map type's field for `key`, an array type's item, or null (another kind, no such key).
  virtual const TypeRules* field_rules(const Scalar& key) const = 0;
  virtual const TypeRules* item_rules() const = 0;

 protected:
  ~TypeRules() = default;
};

// Runs the validations of the final values (ytt's validateValues): the rules of `type` (null
// without a schema) and the `@assert/validate` rules left on the values and on their
// document (`doc_anns`, at `doc_span`). Returns ytt's failure text (the part after
// "Validating final data values:\n"), empty when everything passes, and the same failures
// as problems, one per value, in `problems` if given; throws YttError when an annotation's
// arguments are wrong.
std::string validate_values(const DPtr& values, const TypeRules* type,
                            const std::vector<Ann>& doc_anns, const diag::Span& doc_span,
                            sl::Thread& thread, const Files& files,
                            std::vector<Problem>* problems = nullptr);
// Whether the text "assert/validate" is in some file of `files` or of its callers' (each file
// searched once): without it, no value can carry an `@assert/validate` rule.
bool mentions_assert_validate(const Files& files);

// What is wrong with the arguments of a `@schema/validation` or `@assert/validate` annotation,
// worded as ytt words it (after "Invalid @NAME annotation - "); nullopt when they are right.
std::optional<std::string> validation_args_problem(const Ann& a);

}  // namespace hintkit::ytt
