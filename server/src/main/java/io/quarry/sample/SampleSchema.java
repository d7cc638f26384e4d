package io.quarry.sample;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The tables of the Sample Database, in creation order (referenced tables first). Column types are chosen so that
 * their JDBC types map to the Metabase base types: BIGINT → type/BigInteger, INTEGER → type/Integer, DOUBLE
 * PRECISION → type/Float, CHARACTER VARYING → type/Text, TIMESTAMP → type/DateTime, DATE → type/Date, BOOLEAN →
 * type/Boolean.
 */
final class SampleSchema {
    private SampleSchema() {
    }

    /** A column: name, SQL type, the matching {@link Types} constant (for null binds) and its description. */
    record Column(String name, String sqlType, int jdbcType, String remark) {
    }

    /** A foreign key from {@code column} to {@code target}.ID. */
    record ForeignKey(String column, String target) {
    }

    /** A table; its first column is the primary key {@code ID}. */
    record Table(String name, String remark, List<Column> columns, List<ForeignKey> foreignKeys) {
        String createSql() {
            String columnSql = columns.stream()
                    .map(column -> column.name() + ' ' + column.sqlType())
                    .collect(Collectors.joining(", "));
            return "CREATE TABLE PUBLIC." + name + " (" + columnSql + ", CONSTRAINT PK_" + name + " PRIMARY KEY ("
                    + columns.get(0).name() + "))";
        }

        String insertSql() {
            return "INSERT INTO PUBLIC." + name + " ("
                    + columns.stream().map(Column::name).collect(Collectors.joining(", ")) + ") VALUES ("
                    + columns.stream().map(column -> "?").collect(Collectors.joining(", ")) + ')';
        }

        List<String> foreignKeySql() {
            return foreignKeys.stream()
                    .map(key -> "ALTER TABLE PUBLIC." + name + " ADD CONSTRAINT FK_" + name + '_' + key.column()
                            + " FOREIGN KEY (" + key.column() + ") REFERENCES PUBLIC." + key.target() + " (ID)")
                    .toList();
        }

        List<String> commentSql() {
            List<String> comments = new ArrayList<>();
            comments.add("COMMENT ON TABLE PUBLIC." + name + " IS " + quote(remark));
            for (Column column : columns) {
                comments.add("COMMENT ON COLUMN PUBLIC." + name + '.' + column.name() + " IS " + quote(column.remark()));
            }
            return comments;
        }
    }

    private static final String BIGINT = "BIGINT";
    private static final String INTEGER = "INTEGER";
    private static final String DOUBLE = "DOUBLE PRECISION";
    private static final String TEXT = "CHARACTER VARYING";
    private static final String TIMESTAMP = "TIMESTAMP";
    private static final String DATE = "DATE";
    private static final String BOOLEAN = "BOOLEAN";

    private static Column bigint(String name, String remark) {
        return new Column(name, BIGINT, Types.BIGINT, remark);
    }

    private static Column integer(String name, String remark) {
        return new Column(name, INTEGER, Types.INTEGER, remark);
    }

    private static Column number(String name, String remark) {
        return new Column(name, DOUBLE, Types.DOUBLE, remark);
    }

    private static Column text(String name, String remark) {
        return new Column(name, TEXT, Types.VARCHAR, remark);
    }

    private static Column timestamp(String name, String remark) {
        return new Column(name, TIMESTAMP, Types.TIMESTAMP, remark);
    }

    private static Column date(String name, String remark) {
        return new Column(name, DATE, Types.DATE, remark);
    }

    private static Column bool(String name, String remark) {
        return new Column(name, BOOLEAN, Types.BOOLEAN, remark);
    }

    private static String quote(String text) {
        return '\'' + text.replace("'", "''") + '\'';
    }

    static final Table PRODUCTS = new Table("PRODUCTS",
            "The catalog of products this fictional store sells.",
            List.of(
                    bigint("ID", "A unique identifier for the product."),
                    text("EAN", "The 13-digit International Article Number (barcode) of the product."),
                    text("TITLE", "The name of the product as shown to customers."),
                    text("CATEGORY", "The type of product: Doohickey, Gadget, Gizmo or Widget."),
                    text("VENDOR", "The company that supplies the product."),
                    number("PRICE", "The list price of the product, in US dollars."),
                    number("RATING", "The average review score of the product, from 1 to 5; 0 while it has no reviews."),
                    timestamp("CREATED_AT", "When the product was added to the catalog.")),
            List.of());

    static final Table PEOPLE = new Table("PEOPLE",
            "The people who have an account with the store, with their contact and demographic details.",
            List.of(
                    bigint("ID", "A unique identifier for the user."),
                    text("ADDRESS", "The street address of the account's billing address."),
                    text("EMAIL", "The contact email of the account."),
                    text("PASSWORD", "A (fake) password the user signed up with."),
                    text("NAME", "The name of the user who owns an account"),
                    text("CITY", "The city of the account's billing address."),
                    number("LONGITUDE", "The longitude of the account's billing address."),
                    text("STATE", "The two-letter US state code of the account's billing address."),
                    text("SOURCE", "The channel through which the user signed up."),
                    date("BIRTH_DATE", "The date of birth of the user."),
                    text("ZIP", "The five-digit postal code of the account's billing address."),
                    number("LATITUDE", "The latitude of the account's billing address."),
                    timestamp("CREATED_AT", "When the user signed up.")),
            List.of());

    static final Table ORDERS = new Table("ORDERS",
            "The orders placed by users: which product, how many, and what they paid.",
            List.of(
                    bigint("ID", "A unique identifier for the order."),
                    integer("USER_ID", "The user who placed the order."),
                    integer("PRODUCT_ID", "The product that was ordered."),
                    number("SUBTOTAL", "The price of the ordered products before tax and discount."),
                    number("TAX", "The sales tax charged on the order, by the state of the user."),
                    number("TOTAL", "The amount paid: subtotal plus tax minus discount."),
                    number("DISCOUNT", "The discount applied to the order, if any."),
                    timestamp("CREATED_AT", "When the order was placed."),
                    integer("QUANTITY", "The number of units ordered.")),
            List.of(new ForeignKey("USER_ID", "PEOPLE"), new ForeignKey("PRODUCT_ID", "PRODUCTS")));

    static final Table REVIEWS = new Table("REVIEWS",
            "Reviews that customers wrote about products.",
            List.of(
                    bigint("ID", "A unique identifier for the review."),
                    integer("PRODUCT_ID", "The product that was reviewed."),
                    text("REVIEWER", "The user name of the reviewer."),
                    integer("RATING", "The score the reviewer gave the product, from 1 to 5."),
                    text("BODY", "The text of the review."),
                    timestamp("CREATED_AT", "When the review was written.")),
            List.of(new ForeignKey("PRODUCT_ID", "PRODUCTS")));

    static final Table ACCOUNTS = new Table("ACCOUNTS",
            "The customer accounts of a fictional software-as-a-service product.",
            List.of(
                    bigint("ID", "A unique identifier for the account."),
                    text("EMAIL", "The email of the account owner."),
                    text("FIRST_NAME", "The first name of the account owner."),
                    text("LAST_NAME", "The last name of the account owner."),
                    text("PLAN", "The current subscription plan: Basic, Business or Premium."),
                    text("SOURCE", "The channel through which the account signed up."),
                    integer("SEATS", "The number of paid seats on the account."),
                    timestamp("CREATED_AT", "When the account was created and its trial started."),
                    timestamp("TRIAL_ENDS_AT", "When the free trial ends or ended."),
                    timestamp("CANCELED_AT", "When the account canceled its subscription, if it did."),
                    bool("TRIAL_CONVERTED", "Whether the account became a paying customer after its trial."),
                    bool("ACTIVE_SUBSCRIPTION", "Whether the account currently pays for a subscription."),
                    bool("LEGACY_PLAN", "Whether the account is on a plan that is no longer sold."),
                    number("LATITUDE", "The latitude of the account's location."),
                    number("LONGITUDE", "The longitude of the account's location."),
                    text("COUNTRY", "The two-letter ISO country code of the account's location.")),
            List.of());

    static final Table ANALYTIC_EVENTS = new Table("ANALYTIC_EVENTS",
            "Events recorded while account users browsed the product's website and app.",
            List.of(
                    bigint("ID", "A unique identifier for the event."),
                    bigint("ACCOUNT_ID", "The account whose user triggered the event."),
                    text("EVENT", "What happened, such as Viewed Page or Clicked Button."),
                    timestamp("TIMESTAMP", "When the event happened."),
                    text("PAGE_URL", "The URL of the page where the event happened."),
                    text("BUTTON_LABEL", "The label of the clicked button, for button clicks.")),
            List.of(new ForeignKey("ACCOUNT_ID", "ACCOUNTS")));

    static final Table FEEDBACK = new Table("FEEDBACK",
            "Product feedback that account owners sent in.",
            List.of(
                    bigint("ID", "A unique identifier for the feedback."),
                    bigint("ACCOUNT_ID", "The account that sent the feedback."),
                    text("EMAIL", "The email the feedback was sent from."),
                    timestamp("DATE_RECEIVED", "When the feedback was received."),
                    integer("RATING", "The satisfaction score given, from 1 to 5."),
                    text("RATING_MAPPED", "The satisfaction score in words."),
                    text("BODY", "The text of the feedback.")),
            List.of(new ForeignKey("ACCOUNT_ID", "ACCOUNTS")));

    static final Table INVOICES = new Table("INVOICES",
            "Monthly subscription payments received from accounts.",
            List.of(
                    bigint("ID", "A unique identifier for the invoice."),
                    bigint("ACCOUNT_ID", "The account that paid the invoice."),
                    number("PAYMENT", "The amount paid, in US dollars."),
                    bool("EXPECTED_INVOICE", "Whether the payment was a scheduled subscription charge."),
                    text("PLAN", "The plan the account was billed for."),
                    date("DATE_RECEIVED", "The day the payment was received.")),
            List.of(new ForeignKey("ACCOUNT_ID", "ACCOUNTS")));

    /** Every table, referenced tables before the tables that reference them. */
    static final List<Table> TABLES = List.of(PRODUCTS, PEOPLE, ORDERS, REVIEWS, ACCOUNTS, ANALYTIC_EVENTS, FEEDBACK,
            INVOICES);
}
