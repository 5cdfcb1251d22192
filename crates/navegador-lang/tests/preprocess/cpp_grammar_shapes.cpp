// C++ that tree-sitter-cpp 0.23.4 does not read, rewritten in place by the C++ pack's
// prepare hook (languages/cpp/hooks.rs, `grammar_shapes`, and `blank_inline_conditionals`
// in src/hooks.rs): the facts stay at their lines.
#include <gmock/gmock.h>

using folly::dynamic, folly::parseJson,
    folly::toJson;

namespace bridging {

template <typename C, typename R, typename... Args>
struct function_wrapper<R (C::*)(Args...)> {
  using type = R;
};

template <typename C, typename R>
R callMethod(C* instance, R (C::*method)(int), int x) {
  return (instance->*method)(x) + ((*instance).*method)(x);
}

class Converter {
 public:
  template <typename U>
  operator U() && {
    return convert(std::move(*this).operator Value(), other->operator==(*this));
  }

  template <typename U>
  operator U() const& = delete;

  Converter& operator=(const Converter& other);

  Converter(Converter&& other) {
    operator=(std::move(other));
  }
};

void schedule(Data newData) {
  updateState([data{std::move(newData)}](const Data& old) { return merge(old, data); });
  emit([names = {"ten", "eleven"}, empty = {}](Runtime& rt) { return toJs(rt, names); });
}

// (a conditional inside a member initializer list, after its `:`: both branches read)
Converter::Converter(int depth)
    :
#if DEBUG_NAMES
      name_("converter"),
#endif
      depth_(depth) {}

class MockSocket : public Socket {
 public:
  MOCK_METHOD(void, send, (std::string_view message), (override));
  MOCK_METHOD(bool, isOpen, (), (override, const));
  MOCK_METHOD((std::map<int, int>), table, (int a, int b), (const, noexcept));
  MOCK_METHOD(void, close, ());
};

} // namespace bridging
