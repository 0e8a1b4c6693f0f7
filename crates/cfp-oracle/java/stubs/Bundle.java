/** `android.os.Bundle`. */
class Bundle {
}
