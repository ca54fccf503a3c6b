package io.weir.testsuite.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The README and every page under {@code docs/} name only things that exist: each {@code io.weir} class is on this
 * module's class path or has a source file in some module, each {@code io.weir} package has a source folder (main or
 * test), each Java module a {@code module-info.java}, and each {@code io.weir} system property is a string in some
 * module's main sources; every link from one page to
 * another (and to a heading in it) resolves. A renamed class or property fails here until its page follows.
 */
class DocsNameRealThingsTest {
    /** {@code io.weir.x.y}, also right after {@code -D}; a trailing dot (end of a sentence) is not part of it. */
    private static final Pattern NAME =
            Pattern.compile("(?:(?<=-D)|(?<![A-Za-z0-9_.$/-]))io\\.weir(?:\\.[A-Za-z_$][A-Za-z0-9_$]*)+");
    private static final Pattern MODULE = Pattern.compile("^\\s*(?:open\\s+)?module\\s+([\\w.]+)", Pattern.MULTILINE);
    /** {@code [text](target)} where the target is a relative page, with or without an anchor. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+?\\.md)(#[^)\\s]*)?\\)|\\]\\((#[^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*$", Pattern.MULTILINE);

    private static Path root;
    private static List<Path> pages;
    private static List<Path> sourceRoots;
    /** Main and test source folders: a page may name a test-only package such as the testsuite's. */
    private static List<Path> allSourceRoots;
    private static String mainSources;
    private static Set<String> modules;

    @BeforeAll
    static void readRepository() throws IOException {
        root = Path.of("").toAbsolutePath().getParent();
        assertThat(root.resolve("README.md")).as("the repository root, one level above testsuite/").exists();
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            pages = Stream.concat(Stream.of(root.resolve("README.md")),
                    docs.filter(p -> p.toString().endsWith(".md")).sorted()).collect(Collectors.toList());
        }
        try (Stream<Path> dirs = Files.list(root)) {
            List<Path> modulesDirs = dirs.filter(Files::isDirectory).sorted().collect(Collectors.toList());
            sourceRoots = modulesDirs.stream().map(d -> d.resolve("src/main/java")).filter(Files::isDirectory)
                    .collect(Collectors.toList());
            allSourceRoots = modulesDirs.stream().flatMap(d -> Stream.of(d.resolve("src/main/java"),
                    d.resolve("src/test/java"))).filter(Files::isDirectory).collect(Collectors.toList());
        }
        StringBuilder all = new StringBuilder();
        for (Path sourceRoot : sourceRoots) {
            try (Stream<Path> files = Files.walk(sourceRoot)) {
                for (Path file : files.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList())) {
                    all.append(Files.readString(file, StandardCharsets.UTF_8)).append('\n');
                }
            }
        }
        mainSources = all.toString();
        modules = new TreeSet<>();
        Matcher m = MODULE.matcher(mainSources);
        while (m.find()) {
            modules.add(m.group(1));
        }
    }

    @Test
    void everyNamedClassPackageAndPropertyExists() {
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (Path page : pages) {
            Matcher m = NAME.matcher(read(page));
            while (m.find()) {
                String name = m.group();
                checked++;
                String problem = problemWith(name);
                if (problem != null) {
                    missing.add(root.relativize(page) + ": " + name + " (" + problem + ")");
                }
            }
        }
        assertThat(checked).as("io.weir names found in the pages").isGreaterThan(100);
        assertThat(missing).as("names in README.md and docs/ that the code does not have").isEmpty();
    }

    @Test
    void everyLinkBetweenPagesResolves() {
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            Matcher m = LINK.matcher(read(page));
            while (m.find()) {
                Path target = m.group(3) != null ? page : page.getParent().resolve(m.group(1)).normalize();
                String anchor = m.group(3) != null ? m.group(3) : m.group(2);
                if (!Files.isRegularFile(target)) {
                    broken.add(root.relativize(page) + ": " + m.group() + " (no such page)");
                } else if (anchor != null && !anchors(target).contains(anchor.substring(1))) {
                    broken.add(root.relativize(page) + ": " + m.group() + " (no such heading in "
                            + root.relativize(target) + ")");
                }
            }
        }
        assertThat(broken).as("links in README.md and docs/ that lead nowhere").isEmpty();
    }

    /** Why {@code name} names nothing, or {@code null} when it names a class, package, module or property. */
    private static String problemWith(String name) {
        String[] segments = name.split("\\.");
        for (int i = 2; i < segments.length; i++) {
            if (Character.isUpperCase(segments[i].charAt(0))) {
                String className = String.join(".", List.of(segments).subList(0, i + 1));
                return classExists(className) ? null : "no such class on the class path or in any module's sources";
            }
        }
        if (allSourceRoots.stream().anyMatch(r -> Files.isDirectory(r.resolve(name.replace('.', '/'))))) {
            return null;
        }
        if (modules.contains(name) || mainSources.contains('"' + name + '"')) {
            return null;
        }
        // A property built from a prefix constant and a setting's name: "io.weir.example." + "port"; the prefix
        // must be longer than "io.weir." itself.
        int lastDot = name.lastIndexOf('.');
        if (segments.length > 3 && mainSources.contains('"' + name.substring(0, lastDot + 1) + '"')) {
            return null;
        }
        return "neither a package, a module, nor a property string in any module's main sources";
    }

    private static boolean classExists(String className) {
        try {
            Class.forName(className, false, DocsNameRealThingsTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            String file = className.replace('.', '/') + ".java";
            return allSourceRoots.stream().anyMatch(r -> Files.isRegularFile(r.resolve(file)));
        }
    }

    /** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens. */
    private static Set<String> anchors(Path page) {
        Set<String> anchors = new TreeSet<>();
        Matcher m = HEADING.matcher(read(page).replaceAll("(?ms)^```.*?^```", ""));
        while (m.find()) {
            anchors.add(m.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
        }
        return anchors;
    }

    private static String read(Path page) {
        try {
            return Files.readString(page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
