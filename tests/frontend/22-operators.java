// spec: lock.cfg
class Main {
    static long total = 10L;
    public static void main(String[] args) {
        int a = 7, b = 0x1F, c = 0b101, d = 1_000;
        a += b * c - d / 3 % 2;
        a -= 1;
        a *= 2;
        boolean f = (a << 1) > (b >> 1) & !(c >>> 1 == 0) | a != b ^ true;
        char ch = 'x';
        String s = "lock" + a;
        double z = 1.5;
        int e = -a + +b + ~c;
        int g = (int) total;
        total = total + g;
        Object o = s;
        if (o instanceof String && f) {
            e = ++a + b-- - --c + d++;
        }
    }
}
