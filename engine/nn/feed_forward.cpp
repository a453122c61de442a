#include "engine/nn/feed_forward.h"

#include "engine/nn/split_matmul.h"

namespace ascope {

bool parseActivation(const std::string& name, Activation* out) {
  if (name == "relu") {
    *out = Activation::kRelu;
  } else if (name == "gelu") {
    *out = Activation::kGelu;
  } else if (name == "gelu_tanh") {
    *out = Activation::kGeluTanh;
  } else {
    return false;
  }
  return true;
}

std::string activationName(Activation activation) {
  switch (activation) {
    case Activation::kGelu:
      return "gelu";
    case Activation::kGeluTanh:
      return "gelu_tanh";
    case Activation::kRelu:
      break;
  }
  return "relu";
}

namespace {

Tensor activate(const Tensor& x, Activation activation) {
  switch (activation) {
    case Activation::kGelu:
      return at::gelu(x);
    case Activation::kGeluTanh:
      return at::gelu(x, "tanh");
    case Activation::kRelu:
      break;
  }
  return at::relu(x);
}

}  // namespace

FeedForwardImpl::FeedForwardImpl(int64_t d_model, int64_t d_ff, Activation activation,
                                 double dropout_p)
    : activation_(activation) {
  linear1 = register_module("linear1", torch::nn::Linear(d_model, d_ff));
  dropout = register_module("dropout", HashDropout(dropout_p));
  linear2 = register_module("linear2", torch::nn::Linear(d_ff, d_model));
}

Tensor FeedForwardImpl::forward(const Tensor& x) {
  Tensor h = splitLinear(x, linear1->weight, linear1->bias);  // (B, T, d_ff)
  h = activate(h, activation_);
  return splitLinear(dropout(h), linear2->weight, linear2->bias);  // (B, T, d)
}

}  // namespace ascope
