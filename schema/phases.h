// Internal: the late phases of the pipeline (validations, OpenAPI inspection).
#pragma once

#include <string>

#include "schema/internal.h"

namespace hintkit::schema {

// Runs every validation of `type` over the final values; returns ytt's failure text (the
// part after "Validating final data values:\n"), empty when everything passes.
std::string validate_values(const DPtr& values, const SType& type, sl::Thread& thread,
                            const Files& files);

// `--data-values-schema-inspect -o openapi-v3` (json: `-o json` as well).
std::string openapi_text(const TypePtr& type, bool json);

}  // namespace hintkit::schema
