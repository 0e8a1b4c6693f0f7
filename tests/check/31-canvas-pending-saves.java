// spec: canvas.cfg
// expect: verified
// why: saves may stay pending (S -> save S): any number of saves in the loop, then one
// save/restore pair. Restores never outnumber saves in any prefix.
class Main {
    public static void main(String[] args) {
        Canvas c = new Canvas();
        while (*) {
            c.save();
        }
        c.save();
        c.save();
        c.restore();
    }
}
