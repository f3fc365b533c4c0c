// Internal: the late phases of the pipeline (validations, OpenAPI inspection).
#pragma once

#include <optional>
#include <string>

#include "schema/internal.h"

namespace hintkit::schema {

// Runs the validations of the final values (ytt's validateValues): the rules of `type` (null
// without a schema) and the `@assert/validate` rules left on the values and on their
// document (`doc_anns`, at `doc_span`). Returns ytt's failure text (the part after
// "Validating final data values:\n"), empty when everything passes, and the same failures
// as problems, one per value, in `problems` if given; throws YttError when an annotation's
// arguments are wrong.
std::string validate_values(const DPtr& values, const SType* type, const std::vector<Ann>& doc_anns,
                            const diag::Span& doc_span, sl::Thread& thread, const Files& files,
                            std::vector<Problem>* problems = nullptr);
// Whether the text "assert/validate" is in some file of `files` or of its callers' (each file
// searched once): without it, no value can carry an `@assert/validate` rule.
bool mentions_assert_validate(const Files& files);

// What is wrong with the arguments of a `@schema/validation` or `@assert/validate` annotation,
// worded as ytt words it (after "Invalid @NAME annotation - "); nullopt when they are right.
std::optional<std::string> validation_args_problem(const Ann& a);

// `--data-values-schema-inspect -o openapi-v3` (json: `-o json` as well).
std::string openapi_text(const TypePtr& type, bool json);

}  // namespace hintkit::schema
