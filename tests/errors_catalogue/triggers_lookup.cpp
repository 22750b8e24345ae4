// Catalogue triggers for lookups of unknown names (issue 13): the "did you mean" form.
#include "catalogue.hpp"
#include "trigger_helpers.hpp"

namespace loom {
namespace {

using catalogue::rt;

const TriggerSet lookup = {
    {"E-LOOKUP-SUGGESTION", [] { rt().ufunc("sqrtt"); }},
};

}  // namespace
}  // namespace loom
