// The stylesheet is imported for its side effect (`import '@inlay/react/styles.css'`); this declaration lets
// TypeScript resolve that import without a bundler's ambient `*.css` types.
export {};
