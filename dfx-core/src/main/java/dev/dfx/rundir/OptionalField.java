package dev.dfx.rundir;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@link RunManifest} field added to version 1 after run.json files without it were written: the writer
 * always writes it, and a reader accepts a run.json where it is missing or null (the field then reads as null, which
 * its users take as "unknown"). Every other field is required ({@link ManifestFile#read}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface OptionalField {
}
