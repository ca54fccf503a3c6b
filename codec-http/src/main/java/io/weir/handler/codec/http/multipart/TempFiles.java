package io.weir.handler.codec.http.multipart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Temporary files of disk-backed form data, and the files still to delete at JVM exit. Unlike
 * {@link java.io.File#deleteOnExit()}, whose list only grows, a file leaves the set when it is deleted, so a
 * long-running server does not accumulate one entry per upload. Thread-safe.
 */
final class TempFiles {
    private static final Set<Path> DELETE_ON_EXIT = ConcurrentHashMap.newKeySet();

    static {
        Thread hook = new Thread(TempFiles::deleteAllRemaining, "weir-multipart-temp-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private TempFiles() {
    }

    /** A new empty file in {@code directory} ({@code null}: the system temp directory). */
    static Path create(Path directory, String prefix, String suffix, boolean deleteOnExit) throws IOException {
        Path file = directory == null ? Files.createTempFile(prefix, suffix)
                : Files.createTempFile(Files.createDirectories(directory), prefix, suffix);
        if (deleteOnExit) {
            DELETE_ON_EXIT.add(file);
        }
        return file;
    }

    /** Deletes {@code file} if it exists and forgets it. */
    static void delete(Path file) {
        DELETE_ON_EXIT.remove(file);
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            System.getLogger(TempFiles.class.getName()).log(System.Logger.Level.WARNING,
                    "could not delete temporary file " + file, e);
        }
    }

    /** Stops tracking {@code file} (it was renamed and now belongs to the user). */
    static void forget(Path file) {
        DELETE_ON_EXIT.remove(file);
    }

    private static void deleteAllRemaining() {
        for (Path p : DELETE_ON_EXIT) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // Best effort at exit: nobody is left to report to.
            }
        }
    }
}
