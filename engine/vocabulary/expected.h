#pragma once
// The engine's error policy for recoverable problems (bad file, bad config, bad value): return a
// value or a message meant for a person. Exceptions stay inside LibTorch calls and are caught at
// the thread boundary.
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace ascope {

/// A message for a person, e.g. "data_batch_1.bin: size 3073 is not a multiple of 3073 bytes".
struct Error {
  std::string message;
};

/// Either a value or an Error. Deliberately small; no monadic API.
template <typename T>
class Expected {
 public:
  Expected(T value) : storage_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Expected(Error error) : storage_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(storage_); }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<T>(storage_); }
  const T& value() const& { return std::get<T>(storage_); }
  T&& value() && { return std::get<T>(std::move(storage_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const std::string& error() const { return std::get<Error>(storage_).message; }

 private:
  std::variant<T, Error> storage_;
};

/// Success or an error message, for operations that produce nothing.
class Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error.message)) {}  // NOLINT(google-explicit-constructor)
  static Status okStatus() { return Status(); }

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const std::string& error() const { return *error_; }

 private:
  std::optional<std::string> error_;
};

}  // namespace ascope
