package io.quarry.sample;

import static io.quarry.sample.SampleSchema.ACCOUNTS;
import static io.quarry.sample.SampleSchema.ANALYTIC_EVENTS;
import static io.quarry.sample.SampleSchema.FEEDBACK;
import static io.quarry.sample.SampleSchema.INVOICES;
import static io.quarry.sample.SampleSchema.ORDERS;
import static io.quarry.sample.SampleSchema.PEOPLE;
import static io.quarry.sample.SampleSchema.PRODUCTS;
import static io.quarry.sample.SampleSchema.REVIEWS;

import io.quarry.sample.SampleSchema.Table;
import io.quarry.sample.Vocabulary.Country;
import io.quarry.sample.Vocabulary.State;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Generates the rows of every Sample Database table from a seed. Pure computation: no clock, locale, time zone or
 * hash-order dependence, so one seed always gives the same rows. Each table draws from its own random stream.
 */
final class SampleDataGenerator {
    static final int PRODUCT_COUNT = 200;
    static final int PEOPLE_COUNT = 2_500;
    static final int ORDER_COUNT = 18_760;
    static final int REVIEW_COUNT = 1_112;
    static final int ACCOUNT_COUNT = 2_500;
    static final int EVENT_COUNT = 25_000;
    static final int FEEDBACK_COUNT = 800;
    static final int INVOICE_COUNT = 6_000;

    static final LocalDateTime PRODUCTS_FROM = LocalDateTime.of(2022, 4, 1, 0, 0);
    static final LocalDateTime PRODUCTS_UNTIL = LocalDateTime.of(2025, 4, 1, 0, 0);
    static final LocalDateTime PEOPLE_FROM = LocalDateTime.of(2022, 4, 19, 0, 0);
    static final LocalDateTime PEOPLE_UNTIL = LocalDateTime.of(2026, 4, 1, 0, 0);
    static final LocalDateTime ORDERS_FROM = LocalDateTime.of(2022, 5, 1, 0, 0);
    static final LocalDateTime ACCOUNTS_FROM = LocalDateTime.of(2022, 5, 1, 0, 0);
    static final LocalDateTime ACCOUNTS_UNTIL = LocalDateTime.of(2026, 4, 1, 0, 0);
    /** Nothing happens at or after this instant: the data set "ends" on 2026-04-30. */
    static final LocalDateTime DATA_END = LocalDateTime.of(2026, 5, 1, 0, 0);

    private static final int TRIAL_DAYS = 14;
    private static final String EVENT_VIEWED_PAGE = "Viewed Page";
    private static final String EVENT_CLICKED_BUTTON = "Clicked Button";
    private static final String EVENT_SUBMITTED_FORM = "Submitted Form";

    private final long seed;

    private SampleDataGenerator(long seed) {
        this.seed = seed;
    }

    /** All rows, keyed by table in {@link SampleSchema#TABLES} order; each row's values follow the table's columns. */
    static Map<Table, List<Object[]>> generate(long seed) {
        return new SampleDataGenerator(seed).generate();
    }

    private Map<Table, List<Object[]>> generate() {
        List<Product> products = products();
        List<Object[]> reviews = reviews(products);
        List<Person> people = people();
        List<Account> accounts = accounts();

        Map<Table, List<Object[]>> rows = new LinkedHashMap<>();
        rows.put(PRODUCTS, products.stream().map(Product::row).toList());
        rows.put(PEOPLE, people.stream().map(Person::row).toList());
        rows.put(ORDERS, orders(people, products));
        rows.put(REVIEWS, reviews);
        rows.put(ACCOUNTS, accounts.stream().map(Account::row).toList());
        rows.put(ANALYTIC_EVENTS, analyticEvents(accounts));
        rows.put(FEEDBACK, feedback(accounts));
        rows.put(INVOICES, invoices(accounts));
        return rows;
    }

    // ---------------------------------------------------------------------------------------------- products

    private static final class Product {
        final long id;
        final String ean;
        final String title;
        final String material;
        final String noun;
        final String category;
        final String vendor;
        final double price;
        final double quality;
        final double popularity;
        final LocalDateTime createdAt;
        int reviewCount;
        int reviewTotal;

        Product(long id, String ean, String title, String material, String noun, String category, String vendor,
                double price, double quality, double popularity, LocalDateTime createdAt) {
            this.id = id;
            this.ean = ean;
            this.title = title;
            this.material = material;
            this.noun = noun;
            this.category = category;
            this.vendor = vendor;
            this.price = price;
            this.quality = quality;
            this.popularity = popularity;
            this.createdAt = createdAt;
        }

        Object[] row() {
            double rating = reviewCount == 0 ? 0.0 : round(reviewTotal / (double) reviewCount, 1);
            return new Object[] {id, ean, title, category, vendor, price, rating, createdAt};
        }
    }

    private List<Product> products() {
        Rng rng = new Rng(seed, "PRODUCTS");
        List<String> vendors = vendors(rng, 60);
        Set<String> titles = new HashSet<>();
        Set<String> eans = new HashSet<>();
        List<Product> products = new ArrayList<>(PRODUCT_COUNT);
        for (int id = 1; id <= PRODUCT_COUNT; id++) {
            String adjective;
            String material;
            String noun;
            String title;
            do {
                adjective = rng.pick(Vocabulary.PRODUCT_ADJECTIVES);
                material = rng.pick(Vocabulary.PRODUCT_MATERIALS);
                noun = rng.pick(Vocabulary.PRODUCT_NOUNS);
                title = adjective + ' ' + material + ' ' + noun;
            } while (!titles.add(title));
            String ean;
            do {
                ean = ean(rng.digits(12));
            } while (!eans.add(ean));
            products.add(new Product(id, ean, title, material, noun, rng.pick(Vocabulary.CATEGORIES),
                    rng.pick(vendors), round(rng.uniform(15, 100), 2), rng.uniform(1.8, 4.9),
                    0.2 + rng.exponential(1.0), rng.instant(PRODUCTS_FROM, PRODUCTS_UNTIL)));
        }
        return products;
    }

    private static List<String> vendors(Rng rng, int count) {
        Set<String> vendors = new HashSet<>();
        List<String> ordered = new ArrayList<>(count);
        while (ordered.size() < count) {
            String first = rng.pick(Vocabulary.LAST_NAMES);
            String second = rng.pick(Vocabulary.LAST_NAMES);
            String vendor = switch (rng.between(0, 3)) {
                case 0 -> first + '-' + second;
                case 1 -> first + ", " + second + " and " + rng.pick(Vocabulary.LAST_NAMES);
                default -> first + ' ' + rng.pick(Vocabulary.COMPANY_SUFFIXES);
            };
            if (!first.equals(second) && vendors.add(vendor)) {
                ordered.add(vendor);
            }
        }
        return ordered;
    }

    /** Appends the EAN-13 check digit to 12 digits. */
    static String ean(String twelveDigits) {
        int sum = 0;
        for (int i = 0; i < 12; i++) {
            int digit = twelveDigits.charAt(i) - '0';
            sum += i % 2 == 0 ? digit : 3 * digit;
        }
        return twelveDigits + (char) ('0' + (10 - sum % 10) % 10);
    }

    // ----------------------------------------------------------------------------------------------- reviews

    private List<Object[]> reviews(List<Product> products) {
        Rng rng = new Rng(seed, "REVIEWS");
        double[] cumulative = cumulative(products.stream().mapToDouble(product -> product.popularity).toArray());
        List<Object[]> rows = new ArrayList<>(REVIEW_COUNT);
        for (int id = 1; id <= REVIEW_COUNT; id++) {
            Product product = products.get(rng.weighted(cumulative));
            int rating = (int) Math.max(1, Math.min(5, Math.round(product.quality + 0.9 * rng.gaussian())));
            product.reviewCount++;
            product.reviewTotal += rating;
            List<String> sentences = rating >= 4 ? Vocabulary.PRAISE
                    : rating == 3 ? Vocabulary.LUKEWARM : Vocabulary.COMPLAINTS;
            String body = sentences(rng, sentences, rng.between(2, 4))
                    .replace("{noun}", product.noun.toLowerCase(Locale.ROOT))
                    .replace("{material}", product.material.toLowerCase(Locale.ROOT))
                    .replace("{relative}", rng.pick(Vocabulary.RELATIVES));
            LocalDateTime createdAt = rng.instant(product.createdAt.plusDays(1), DATA_END);
            rows.add(new Object[] {(long) id, (int) product.id, reviewer(rng), rating, body, createdAt});
        }
        return rows;
    }

    private static String reviewer(Rng rng) {
        String first = rng.pick(Vocabulary.FIRST_NAMES).toLowerCase(Locale.ROOT);
        String last = rng.pick(Vocabulary.LAST_NAMES).toLowerCase(Locale.ROOT);
        return switch (rng.between(0, 3)) {
            case 0 -> first + '.' + last;
            case 1 -> first.charAt(0) + last;
            case 2 -> first + '_' + last.charAt(0);
            default -> first + rng.between(1950, 2005);
        };
    }

    /** {@code count} distinct sentences from {@code pool}, joined with spaces. */
    private static String sentences(Rng rng, List<String> pool, int count) {
        List<String> remaining = new ArrayList<>(pool);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count && !remaining.isEmpty(); i++) {
            if (i > 0) {
                text.append(' ');
            }
            text.append(remaining.remove(rng.between(0, remaining.size() - 1)));
        }
        return text.toString();
    }

    // ------------------------------------------------------------------------------------------------ people

    private record City(String name, State state, double latitude, double longitude, String zipPrefix) {
    }

    private static final class Person {
        final long id;
        final State state;
        final LocalDateTime createdAt;
        final double activity;
        final Object[] row;

        Person(long id, State state, LocalDateTime createdAt, double activity, Object[] row) {
            this.id = id;
            this.state = state;
            this.createdAt = createdAt;
            this.activity = activity;
            this.row = row;
        }

        Object[] row() {
            return row;
        }
    }

    private List<Person> people() {
        Map<State, List<City>> cities = cities(new Rng(seed, "CITIES"));
        Rng rng = new Rng(seed, "PEOPLE");
        double[] stateWeights = cumulative(Vocabulary.STATES.stream().mapToDouble(State::weight).toArray());
        double[] sourceWeights = cumulative(new double[] {0.19, 0.2, 0.24, 0.21, 0.16});
        Set<String> emails = new HashSet<>();
        long span = ChronoUnit.SECONDS.between(PEOPLE_FROM, PEOPLE_UNTIL);
        List<Person> people = new ArrayList<>(PEOPLE_COUNT);
        for (int id = 1; id <= PEOPLE_COUNT; id++) {
            String first = rng.pick(Vocabulary.FIRST_NAMES);
            String last = rng.pick(Vocabulary.LAST_NAMES);
            String email = uniqueEmail(rng, emails, first.toLowerCase(Locale.ROOT) + '.' + last.toLowerCase(Locale.ROOT),
                    rng.pick(Vocabulary.MAIL_DOMAINS));
            State state = Vocabulary.STATES.get(rng.weighted(stateWeights));
            City city = rng.pick(cities.get(state));
            String address = rng.between(1, 9999) + " " + rng.pick(Vocabulary.STREET_NAMES) + ' '
                    + rng.pick(Vocabulary.STREET_SUFFIXES);
            double latitude = round(city.latitude + 0.04 * rng.gaussian(), 6);
            double longitude = round(city.longitude + 0.05 * rng.gaussian(), 6);
            // Sign-ups grow over time: skew toward the later part of the range.
            LocalDateTime createdAt = PEOPLE_FROM.plusSeconds((long) (span * StrictMath.pow(rng.unit(), 0.8)));
            LocalDate birthDate = createdAt.toLocalDate().minusYears(rng.between(18, 79)).minusDays(rng.between(0, 364));
            String source = Vocabulary.PEOPLE_SOURCES.get(rng.weighted(sourceWeights));
            double activity = rng.chance(0.3) ? 0.0 : rng.exponential(1.0);
            Object[] row = {(long) id, address, email, rng.uuid(), first + ' ' + last, city.name, longitude,
                    state.code(), source, birthDate, city.zipPrefix + rng.digits(2), latitude, createdAt};
            people.add(new Person(id, state, createdAt, activity, row));
        }
        return people;
    }

    /** A handful of invented towns per state, with a position inside the state and a ZIP prefix. */
    private static Map<State, List<City>> cities(Rng rng) {
        Map<State, List<City>> cities = new LinkedHashMap<>();
        for (State state : Vocabulary.STATES) {
            int count = (int) Math.max(3, Math.min(16, Math.round(state.weight() / 2)));
            Set<String> names = new HashSet<>();
            List<City> list = new ArrayList<>(count);
            while (list.size() < count) {
                String stem = rng.pick(Vocabulary.CITY_STEMS);
                String name = switch (rng.between(0, 7)) {
                    case 0 -> "Lake " + rng.pick(Vocabulary.LAST_NAMES);
                    case 1 -> stem + " Springs";
                    case 2 -> "Port " + rng.pick(Vocabulary.LAST_NAMES);
                    case 3 -> rng.pick(Vocabulary.LAST_NAMES) + " City";
                    default -> stem + rng.pick(Vocabulary.CITY_SUFFIXES);
                };
                if (names.add(name)) {
                    double latitude = state.latitude() + state.spread() * (2 * rng.unit() - 1);
                    double longitude = state.longitude() + 1.3 * state.spread() * (2 * rng.unit() - 1);
                    list.add(new City(name, state, latitude, longitude, state.zipDigit() + rng.digits(2)));
                }
            }
            cities.put(state, list);
        }
        return cities;
    }

    private static String uniqueEmail(Rng rng, Set<String> used, String localPart, String domain) {
        String email = localPart + '@' + domain;
        while (!used.add(email)) {
            email = localPart + rng.between(1, 999) + '@' + domain;
        }
        return email;
    }

    // ------------------------------------------------------------------------------------------------ orders

    private List<Object[]> orders(List<Person> people, List<Product> products) {
        Rng rng = new Rng(seed, "ORDERS");
        // People order in proportion to their activity and to how long they have been customers.
        double[] peopleWeights = cumulative(people.stream()
                .mapToDouble(person -> person.activity * ChronoUnit.DAYS.between(later(person.createdAt, ORDERS_FROM), DATA_END))
                .toArray());
        double[] productWeights = cumulative(products.stream().mapToDouble(product -> product.popularity).toArray());
        List<Object[]> rows = new ArrayList<>(ORDER_COUNT);
        for (int id = 1; id <= ORDER_COUNT; id++) {
            Person person = people.get(rng.weighted(peopleWeights));
            Product product = products.get(rng.weighted(productWeights));
            LocalDateTime createdAt = rng.instant(later(later(person.createdAt, product.createdAt), ORDERS_FROM), DATA_END);
            int drawn = quantity(rng);
            // Metabase's own tests rely on order 1 having quantity 2.
            int quantity = id == 1 ? 2 : drawn;
            double subtotal = round(product.price * quantity, 2);
            double tax = round(subtotal * person.state.taxRate(), 2);
            Double discount = rng.chance(0.1) ? round(Math.max(0.5, subtotal * rng.uniform(0.05, 0.3)), 2) : null;
            double total = round(subtotal + tax - (discount == null ? 0.0 : discount), 2);
            rows.add(new Object[] {(long) id, (int) person.id, (int) product.id, subtotal, tax, total, discount,
                    createdAt, quantity});
        }
        return rows;
    }

    /** Mostly a few units, now and then a bulk order; never more than 100. */
    private static int quantity(Rng rng) {
        if (rng.chance(0.015)) {
            return rng.between(20, 100);
        }
        return Math.min(100, 1 + (int) rng.exponential(2.5));
    }

    // ---------------------------------------------------------------------------------------------- accounts

    private static final class Account {
        final long id;
        final String email;
        final String plan;
        final int seats;
        final LocalDateTime createdAt;
        final LocalDateTime trialEndsAt;
        final LocalDateTime canceledAt;
        final boolean converted;
        final boolean legacy;
        final Object[] row;

        Account(long id, String email, String plan, int seats, LocalDateTime createdAt, LocalDateTime trialEndsAt,
                LocalDateTime canceledAt, boolean converted, boolean legacy, Object[] row) {
            this.id = id;
            this.email = email;
            this.plan = plan;
            this.seats = seats;
            this.createdAt = createdAt;
            this.trialEndsAt = trialEndsAt;
            this.canceledAt = canceledAt;
            this.converted = converted;
            this.legacy = legacy;
            this.row = row;
        }

        /** The end of the account's life in the data set: its cancellation, or the end of the data. */
        LocalDateTime activeUntil() {
            return canceledAt == null ? DATA_END : canceledAt;
        }

        Object[] row() {
            return row;
        }
    }

    private List<Account> accounts() {
        Rng rng = new Rng(seed, "ACCOUNTS");
        double[] planWeights = cumulative(new double[] {0.5, 0.35, 0.15});
        double[] countryWeights = cumulative(Vocabulary.COUNTRIES.stream().mapToDouble(Country::weight).toArray());
        Set<String> emails = new HashSet<>();
        List<Account> accounts = new ArrayList<>(ACCOUNT_COUNT);
        for (int id = 1; id <= ACCOUNT_COUNT; id++) {
            String first = rng.pick(Vocabulary.FIRST_NAMES);
            String last = rng.pick(Vocabulary.LAST_NAMES);
            String domain = rng.pick(Vocabulary.LAST_NAMES).toLowerCase(Locale.ROOT)
                    + rng.pick(Vocabulary.BUSINESS_WORDS) + ".com";
            String email = uniqueEmail(rng, emails, first.toLowerCase(Locale.ROOT) + '.' + last.toLowerCase(Locale.ROOT),
                    domain);
            String plan = Vocabulary.PLANS.get(rng.weighted(planWeights));
            int seats = switch (plan) {
                case "Basic" -> rng.between(1, 5);
                case "Business" -> Math.min(100, 5 + (int) rng.exponential(12));
                default -> Math.min(500, 20 + (int) rng.exponential(60));
            };
            LocalDateTime createdAt = rng.instant(ACCOUNTS_FROM, ACCOUNTS_UNTIL);
            LocalDateTime trialEndsAt = createdAt.plusDays(TRIAL_DAYS);
            boolean trialOver = trialEndsAt.isBefore(DATA_END);
            boolean converted = trialOver && rng.chance(0.72);
            LocalDateTime canceledAt = null;
            if (trialOver && !converted) {
                canceledAt = trialEndsAt;
            } else if (converted && rng.chance(0.3)) {
                LocalDateTime earliest = trialEndsAt.plusDays(30);
                canceledAt = earliest.isBefore(DATA_END) ? rng.instant(earliest, DATA_END) : null;
            }
            boolean active = converted && canceledAt == null;
            boolean legacy = createdAt.isBefore(LocalDateTime.of(2023, 7, 1, 0, 0)) && rng.chance(0.4);
            Country country = Vocabulary.COUNTRIES.get(rng.weighted(countryWeights));
            double latitude = round(country.latitude() + country.spread() * (2 * rng.unit() - 1), 6);
            double longitude = round(country.longitude() + 1.3 * country.spread() * (2 * rng.unit() - 1), 6);
            String source = rng.pick(Vocabulary.ACCOUNT_SOURCES);
            Object[] row = {(long) id, email, first, last, plan, source, seats, createdAt, trialEndsAt, canceledAt,
                    converted, active, legacy, latitude, longitude, country.code()};
            accounts.add(new Account(id, email, plan, seats, createdAt, trialEndsAt, canceledAt, converted, legacy,
                    row));
        }
        return accounts;
    }

    private List<Object[]> analyticEvents(List<Account> accounts) {
        Rng rng = new Rng(seed, "ANALYTIC_EVENTS");
        double[] accountWeights = cumulative(accounts.stream()
                .mapToDouble(account -> (1 + ChronoUnit.DAYS.between(account.createdAt, account.activeUntil()))
                        * (1 + StrictMath.log(account.seats)))
                .toArray());
        double[] eventWeights = cumulative(new double[] {0.6, 0.3, 0.1});
        List<Object[]> rows = new ArrayList<>(EVENT_COUNT);
        for (int i = 0; i < EVENT_COUNT; i++) {
            Account account = accounts.get(rng.weighted(accountWeights));
            LocalDateTime timestamp = rng.instant(account.createdAt, account.activeUntil());
            String event = switch (rng.weighted(eventWeights)) {
                case 0 -> EVENT_VIEWED_PAGE;
                case 1 -> EVENT_CLICKED_BUTTON;
                default -> EVENT_SUBMITTED_FORM;
            };
            String pageUrl = "https://www.example.com/" + rng.pick(Vocabulary.PAGE_PATHS);
            String buttonLabel = event.equals(EVENT_CLICKED_BUTTON) ? rng.pick(Vocabulary.BUTTON_LABELS) : null;
            rows.add(new Object[] {null, account.id, event, timestamp, pageUrl, buttonLabel});
        }
        return numberedByTime(rows, 3);
    }

    private List<Object[]> feedback(List<Account> accounts) {
        Rng rng = new Rng(seed, "FEEDBACK");
        List<Object[]> rows = new ArrayList<>(FEEDBACK_COUNT);
        for (int i = 0; i < FEEDBACK_COUNT; i++) {
            Account account = rng.pick(accounts);
            LocalDateTime received = rng.instant(account.createdAt.plusHours(1), account.activeUntil());
            int rating = account.canceledAt != null ? rng.between(1, 3)
                    : account.converted ? rng.between(3, 5) : rng.between(2, 5);
            List<String> pool = rating >= 4 ? Vocabulary.FEEDBACK_POSITIVE
                    : rating == 3 ? Vocabulary.FEEDBACK_NEUTRAL : Vocabulary.FEEDBACK_NEGATIVE;
            rows.add(new Object[] {null, account.id, account.email, received, rating,
                    Vocabulary.FEEDBACK_LABELS.get(rating - 1), sentences(rng, pool, rng.between(1, 3))});
        }
        return numberedByTime(rows, 3);
    }

    private List<Object[]> invoices(List<Account> accounts) {
        Rng rng = new Rng(seed, "INVOICES");
        // Every month an account paid for, from the end of its trial until it canceled or the data ends...
        List<long[]> billable = new ArrayList<>();
        for (int index = 0; index < accounts.size(); index++) {
            Account account = accounts.get(index);
            if (!account.converted) {
                continue;
            }
            for (int month = 0; account.trialEndsAt.plusMonths(month).isBefore(account.activeUntil()); month++) {
                billable.add(new long[] {index, month});
            }
        }
        if (billable.size() < INVOICE_COUNT) {
            throw new IllegalStateException("Only " + billable.size() + " billable months for " + INVOICE_COUNT
                    + " invoices");
        }
        // ...of which a random subset has been received (a partial Fisher-Yates shuffle).
        for (int i = 0; i < INVOICE_COUNT; i++) {
            int j = rng.between(i, billable.size() - 1);
            long[] swap = billable.get(i);
            billable.set(i, billable.get(j));
            billable.set(j, swap);
        }
        LocalDate lastDay = DATA_END.toLocalDate().minusDays(1);
        List<Object[]> rows = new ArrayList<>(INVOICE_COUNT);
        for (long[] pick : billable.subList(0, INVOICE_COUNT)) {
            Account account = accounts.get((int) pick[0]);
            LocalDate due = account.trialEndsAt.plusMonths(pick[1]).toLocalDate();
            LocalDate received = due.plusDays(rng.between(0, 6));
            if (received.isAfter(lastDay)) {
                received = lastDay;
            }
            boolean expected = !rng.chance(0.04);
            double pricePerSeat = switch (account.plan) {
                case "Basic" -> 8.0;
                case "Business" -> 15.0;
                default -> 25.0;
            };
            double payment = expected
                    ? round(account.seats * pricePerSeat * (account.legacy ? 0.8 : 1.0), 2)
                    : round(rng.uniform(10, 400), 2);
            rows.add(new Object[] {null, account.id, payment, expected, account.plan, received});
        }
        return numberedByTime(rows, 5);
    }

    // --------------------------------------------------------------------------------------------- utilities

    /** Sorts rows by the time value in column {@code timeColumn} (stable) and numbers them 1..n in column 0. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<Object[]> numberedByTime(List<Object[]> rows, int timeColumn) {
        rows.sort(Comparator.comparing(row -> (Comparable) row[timeColumn]));
        for (int i = 0; i < rows.size(); i++) {
            rows.get(i)[0] = (long) (i + 1);
        }
        return rows;
    }

    private static double[] cumulative(double[] weights) {
        double[] cumulative = new double[weights.length];
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            sum += weights[i];
            cumulative[i] = sum;
        }
        return cumulative;
    }

    private static LocalDateTime later(LocalDateTime a, LocalDateTime b) {
        return a.isAfter(b) ? a : b;
    }

    static double round(double value, int decimals) {
        double scale = decimals == 1 ? 10.0 : decimals == 2 ? 100.0 : StrictMath.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
