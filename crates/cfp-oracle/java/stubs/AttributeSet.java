/** `android.util.AttributeSet`. */
class AttributeSet {
}
