// Keeps the attentionscope_app library non-empty until the main window lands.
namespace ascope {
int appPlaceholder() { return 0; }
}  // namespace ascope
