/** Where the corpus's JSON writers come from. */
final class Json {
    private Json() {}

    static JsonGenerator createGenerator() {
        return new JsonGenerator();
    }

    static JsonGenerator createGenerator(Object out) {
        return new JsonGenerator();
    }
}
