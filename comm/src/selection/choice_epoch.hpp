// Choices already made stay valid until the model, an override, core sharing or the catalog
// changes: each such change starts a new selection epoch (selection_epoch()).
#pragma once

namespace ccl::detail {

void note_selection_change();

}  // namespace ccl::detail
