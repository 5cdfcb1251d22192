namespace facebook::react {

class Config {
 public:
  std::string describe(const std::string& engine) const {
    return "The engine, " ANSI_STYLE_ITALIC + engine + ANSI_STYLE_RESET " is in use";
  }

 private:
  bool useWebDefaults_ : 1 = false;
  uint8_t flags_ : 4 = 0;
};

} // namespace facebook::react
