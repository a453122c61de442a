#include "engine/tasks/used_columns.h"

#include <algorithm>
#include <stdexcept>

namespace ascope {

int64_t usedColumns(const at::Tensor& host_rows, int64_t padding) {
  if (!host_rows.device().is_cpu() || host_rows.dim() != 2) {
    throw std::invalid_argument("usedColumns: a (rows, columns) tensor on the host");
  }
  const at::Tensor rows = host_rows.to(at::kLong).contiguous();
  const int64_t count = rows.size(0), columns = rows.size(1);
  const int64_t* values = rows.data_ptr<int64_t>();
  int64_t used = 1;
  for (int64_t r = 0; r < count; ++r) {
    // From the right: a row usually ends in a run of padding.
    for (int64_t c = columns - 1; c >= used; --c) {
      if (values[r * columns + c] != padding) {
        used = c + 1;
        break;
      }
    }
  }
  return std::min(used, std::max<int64_t>(columns, 1));
}

}  // namespace ascope
