// expect: 4:18
class Main {
    public static void main(String[] args) {
        int x = 1
        x++;
    }
}
