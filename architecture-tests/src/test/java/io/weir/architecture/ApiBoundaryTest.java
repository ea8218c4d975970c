package io.weir.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The line between Weir's public API and its internals, checked over the compiled classes of every
 * module (tests excluded). The public API is the packages in {@link #PUBLIC_PACKAGES}; everything
 * under {@code io.weir.streams.internals} may change in any release, so no user may be made to name
 * it.
 */
class ApiBoundaryTest {

    static final List<String> PUBLIC_PACKAGES = List.of(
            "io.weir.streams",
            "io.weir.streams.dsl",
            "io.weir.streams.errors",
            "io.weir.streams.time",
            "io.weir.streams.state",
            "io.weir.streams.serde",
            "io.weir.streams.tools",
            "io.weir.streams.micrometer",
            "io.weir.streams.spring",
            "io.weir.streams.test",
            "io.weir.streams.test.kafka");

    private static final JavaClasses CLASSES = WeirClasses.ALL;

    /**
     * What a public signature may name: the public API, the JDK, Kafka's client API (not its
     * {@code internals} packages), Jackson's {@code ObjectMapper} API ({@code JsonSerde} takes the
     * user's mapper; Jackson is a declared dependency), JUnit's extension API (the test kit's JUnit
     * extension), Micrometer's API (the binder of {@code streams-micrometer}) and Spring's (the
     * auto-configuration of the Spring Boot starter).
     */
    private static boolean mayAppearInPublicApi(JavaClass type) {
        JavaClass base = type.getBaseComponentType();
        if (base.isPrimitive()) {
            return true;
        }
        String pkg = base.getPackageName();
        if (pkg.contains(".internals")) {
            return false;
        }
        return PUBLIC_PACKAGES.contains(pkg)
                || pkg.startsWith("java.")
                || pkg.startsWith("org.apache.kafka.")
                || pkg.equals("com.fasterxml.jackson.databind")
                // The expert RocksDB hook (RocksDbConfigSetter) hands RocksDB's own option types, as Kafka
                // Streams' RocksDBConfigSetter does: wrapping every option would hide most of them.
                || pkg.equals("org.rocksdb")
                || pkg.startsWith("org.junit.jupiter.api.extension")
                || pkg.startsWith("io.micrometer.core.instrument")
                || pkg.startsWith("org.springframework.");
    }

    private static boolean visible(JavaMember member) {
        return member.getModifiers().contains(JavaModifier.PUBLIC)
                || (member.getModifiers().contains(JavaModifier.PROTECTED)
                        && !member.getOwner().getModifiers().contains(JavaModifier.FINAL));
    }

    private static final ArchCondition<JavaClass> NAME_ONLY_PUBLIC_TYPES =
            new ArchCondition<>(
                    "name only public, JDK, Kafka client, Jackson, RocksDB option or JUnit extension types in public signatures") {
                @Override
                public void check(JavaClass owner, ConditionEvents events) {
                    Set<String> wrong = new LinkedHashSet<>();
                    List<JavaType> declared = new ArrayList<>();
                    owner.getSuperclass().ifPresent(declared::add);
                    declared.addAll(owner.getInterfaces());
                    collect(owner.getName(), declared, wrong);
                    for (JavaCodeUnit unit : owner.getCodeUnits()) {
                        if (visible(unit) && !unit.getName().equals("<clinit>")) {
                            List<JavaType> types = new ArrayList<>(unit.getParameterTypes());
                            types.add(unit.getReturnType());
                            types.addAll(unit.getExceptionTypes());
                            types.addAll(unit.getTypeParameters());
                            collect(unit.getFullName(), types, wrong);
                        }
                    }
                    for (JavaField field : owner.getFields()) {
                        if (visible(field)) {
                            collect(field.getFullName(), List.of(field.getType()), wrong);
                        }
                    }
                    wrong.forEach(w -> events.add(SimpleConditionEvent.violated(owner, w)));
                }

                private void collect(String where, List<? extends JavaType> types, Set<String> wrong) {
                    for (JavaType type : types) {
                        for (JavaClass raw : type.getAllInvolvedRawTypes()) {
                            if (!mayAppearInPublicApi(raw)) {
                                wrong.add(where + " names " + raw.getName());
                            }
                        }
                    }
                }
            };

    @Test
    void publicSignaturesNameNoInternalType() {
        ArchRule rule = classes()
                .that()
                .resideInAnyPackage(PUBLIC_PACKAGES.toArray(String[]::new))
                .and()
                .arePublic()
                .should(NAME_ONLY_PUBLIC_TYPES);
        rule.check(CLASSES);
    }

    /** A public field is a constant, so that no user can change what Weir reads (a mutable ConfigDef, say). */
    @Test
    void publicFieldsOfThePublicApiAreConstantsOfImmutableKinds() {
        DescribedPredicate<JavaClass> immutableKind = DescribedPredicate.describe(
                "a primitive, a String, an enum or a record, or a final class of the public API",
                type -> type.isPrimitive()
                        || type.isEquivalentTo(String.class)
                        || type.isEnum()
                        || type.isRecord()
                        || (PUBLIC_PACKAGES.contains(type.getPackageName())
                                && type.getModifiers().contains(JavaModifier.FINAL)));
        fields().that()
                .areDeclaredInClassesThat()
                .resideInAnyPackage(PUBLIC_PACKAGES.toArray(String[]::new))
                .and()
                .arePublic()
                .should()
                .beStatic()
                .andShould()
                .beFinal()
                .andShould()
                .haveRawType(immutableKind)
                .check(CLASSES);
    }

    @Test
    void examplesAndBenchmarksUseThePublicApiOnly() {
        noClasses()
                .that()
                .resideInAnyPackage("io.weir.examples..", "io.weir.benchmarks..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.weir.streams.internals..")
                .check(CLASSES);
    }

    /** Each public package says what it holds and how stable it is, and that it is null-marked. */
    @Test
    void everyPublicPackageHasANullMarkedPackageInfo() {
        for (String name : PUBLIC_PACKAGES) {
            var info = CLASSES.getPackage(name).tryGetPackageInfo();
            assertTrue(info.isPresent(), name + " has no package-info.java");
            assertTrue(info.get().isAnnotatedWith(NullMarked.class), name + "'s package-info is not @NullMarked");
        }
    }

    /** The rules above looked at something: the import found the modules' classes. */
    @Test
    void theImportSeesEveryModule() {
        for (String pkg : List.of(
                "io.weir.streams.internals.window",
                "io.weir.streams.test.kafka",
                "io.weir.streams.test",
                "io.weir.examples",
                "io.weir.benchmarks")) {
            assertTrue(CLASSES.containPackage(pkg), pkg + " was not imported");
        }
        assertEquals(
                PUBLIC_PACKAGES.size(),
                PUBLIC_PACKAGES.stream().filter(CLASSES::containPackage).count());
    }
}
