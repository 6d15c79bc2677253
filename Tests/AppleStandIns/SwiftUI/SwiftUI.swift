// Stand-in for the subset of SwiftUI the SDK and the sample app use, copied from Apple's
// SwiftUI documentation: names, labels, generic parameters, optionality, availability, and
// the isolation the current SDK declares (`View`, `App` and `Scene` are `@MainActor`; view
// modifiers are `nonisolated`; `Button` actions are `@MainActor`; `Binding`'s closures are
// `@isolated(any) @Sendable`). Generic view types are kept so a view builder's result type
// checks as it does with the real framework. Where SwiftUI's interface carries an attribute
// its documentation does not show (`@_inheritActorContext`: `Binding(get:set:)`'s closures and
// `task`'s action take the caller's isolation), the stand-in has it too. Bodies are never run.
@_exported public import AppleFoundation
public import Combine
public import Observation
#if LATCHKEY_CHECK_IOS
    public import UIKit
#endif

// MARK: Views, scenes, apps

/// `View`.
@MainActor @preconcurrency public protocol View {
    /// The view's content.
    associatedtype Body: View
    /// The view's content.
    @ViewBuilder @MainActor @preconcurrency var body: Body { get }
}

/// `Scene`.
@MainActor @preconcurrency public protocol Scene {
    /// The scene's content.
    associatedtype Body: Scene
    /// The scene's content.
    @SceneBuilder @MainActor @preconcurrency var body: Body { get }
}

/// `App`.
@MainActor @preconcurrency public protocol App {
    /// The app's scenes.
    associatedtype Body: Scene
    /// The app's scenes.
    @SceneBuilder @MainActor @preconcurrency var body: Body { get }
    /// Creates the app.
    @MainActor @preconcurrency init()
}

extension App {
    /// The app's entry point (`@main`).
    @MainActor @preconcurrency public static func main() { standIn() }
}

extension Never: View, Scene {
    /// No content.
    public var body: Never { return standIn() }
}

/// `ViewBuilder`.
@resultBuilder public struct ViewBuilder {
    /// One view.
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    /// No view.
    public static func buildBlock() -> EmptyView { EmptyView() }
    /// One view.
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    /// Several views.
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> { standIn() }
    /// An `if` without `else`.
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    /// The first branch of an `if`-`else` or `switch`.
    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent) -> _ConditionalContent<TrueContent, FalseContent> { standIn() }
    /// The second branch of an `if`-`else` or `switch`.
    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent) -> _ConditionalContent<TrueContent, FalseContent> { standIn() }
}

/// `SceneBuilder`.
@resultBuilder public struct SceneBuilder {
    /// One scene.
    public static func buildExpression<Content: Scene>(_ content: Content) -> Content { content }
    /// One scene.
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// A view with no content of its own (the primitive views below).
public protocol _PrimitiveView: View where Body == Never {}

extension _PrimitiveView {
    /// No content.
    public var body: Never { standIn() }
}

/// `TupleView`.
@frozen public struct TupleView<T>: _PrimitiveView {}
/// `_ConditionalContent`.
@frozen public struct _ConditionalContent<TrueContent, FalseContent>: _PrimitiveView {}
extension Optional: View, _PrimitiveView where Wrapped: View {}
/// `EmptyView`.
@frozen public struct EmptyView: _PrimitiveView {
    /// An empty view.
    public nonisolated init() {}
}
/// A view with a modifier applied (stands in for `ModifiedContent`).
@frozen public struct ModifiedContent<Content, Modifier>: _PrimitiveView {
    nonisolated init() {}
}

/// `WindowGroup`.
public struct WindowGroup<Content: View>: Scene {
    /// A group of windows showing `content`.
    public nonisolated init(@ViewBuilder content: () -> Content) { standIn() }
    /// No further content.
    public var body: Never { standIn() }
}

// MARK: Text

/// `LocalizedStringKey`.
@frozen public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation, Sendable {
    /// A key for `value`.
    public init(_ value: String) { standIn() }
    /// A key for a literal.
    public init(stringLiteral value: String) { standIn() }
    /// A key for an interpolation.
    public init(stringInterpolation: StringInterpolation) { standIn() }

    /// `LocalizedStringKey.StringInterpolation`.
    public struct StringInterpolation: StringInterpolationProtocol {
        /// An empty interpolation.
        public init(literalCapacity: Int, interpolationCount: Int) { standIn() }
        /// A literal part.
        public mutating func appendLiteral(_ literal: String) { standIn() }
        /// A string.
        public mutating func appendInterpolation(_ string: String) { standIn() }
        /// A number or other value with a format specifier.
        public mutating func appendInterpolation<T: _FormatSpecifiable>(_ value: T) { standIn() }
        /// A text.
        public mutating func appendInterpolation(_ text: Text) { standIn() }
    }
}

/// `_FormatSpecifiable`: the values `LocalizedStringKey` interpolates with a format specifier.
public protocol _FormatSpecifiable: Equatable {}
extension Int: _FormatSpecifiable {}
extension Double: _FormatSpecifiable {}

/// `Text`.
@frozen public struct Text: _PrimitiveView, Equatable, Sendable {
    /// A localized text.
    public nonisolated init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) { standIn() }
    /// A text showing `content` as it is.
    @_disfavoredOverload public nonisolated init<S: StringProtocol>(_ content: S) { standIn() }
}

/// `Font`.
@frozen public struct Font: Hashable, Sendable {
    /// The footnote style.
    public static let footnote = Font()
    /// This font, monospaced (iOS 15.0, macOS 12.0).
    @available(iOS 15.0, macOS 12.0, *) public func monospaced() -> Font { standIn() }
    init() {}
}

// MARK: Shape styles

/// `ShapeStyle`.
public protocol ShapeStyle: Sendable {}

/// `Color`.
@frozen public struct Color: ShapeStyle, _PrimitiveView, Hashable {
    /// Red.
    nonisolated public static let red = Color()
    /// Green.
    nonisolated public static let green = Color()
    /// The secondary color.
    nonisolated public static let secondary = Color()
    nonisolated init() {}
}

extension ShapeStyle where Self == Color {
    /// Red.
    public static var red: Color { .red }
    /// Green.
    public static var green: Color { .green }
}

// MARK: Controls and containers

/// `ButtonRole` (iOS 15.0, macOS 12.0).
@available(iOS 15.0, macOS 12.0, *)
public struct ButtonRole: Equatable, Sendable {
    /// A destructive action.
    public static let destructive = ButtonRole()
    /// Cancelling.
    public static let cancel = ButtonRole()
}

/// `Button`.
public struct Button<Label: View>: _PrimitiveView {
    /// A button showing `label` that runs `action`.
    public nonisolated init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) { standIn() }
}

extension Button where Label == Text {
    /// A button titled with a localized key.
    public nonisolated init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) { standIn() }
    /// A button titled `title`.
    @_disfavoredOverload public nonisolated init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) { standIn() }
    /// A button with a role, titled with a localized key (iOS 15.0, macOS 12.0).
    @available(iOS 15.0, macOS 12.0, *)
    public nonisolated init(_ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping @MainActor () -> Void) { standIn() }
}

/// `Link` (iOS 14.0, macOS 11.0): opens its destination with the system (another app for a
/// URL scheme it handles).
@available(iOS 14.0, macOS 11.0, *)
public struct Link<Label: View>: _PrimitiveView {}

@available(iOS 14.0, macOS 11.0, *)
extension Link where Label == Text {
    /// A link titled with a localized key, opening `destination`.
    public nonisolated init(_ titleKey: LocalizedStringKey, destination: URL) { standIn() }
}

/// `Toggle`.
public struct Toggle<Label: View>: _PrimitiveView {}

extension Toggle where Label == Text {
    /// A toggle titled with a localized key.
    public nonisolated init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) { standIn() }
}

/// `TextField`.
public struct TextField<Label: View>: _PrimitiveView {}

extension TextField where Label == Text {
    /// A text field titled with a localized key.
    public nonisolated init(_ titleKey: LocalizedStringKey, text: Binding<String>) { standIn() }
}

/// `SecureField`.
public struct SecureField<Label: View>: _PrimitiveView {}

extension SecureField where Label == Text {
    /// A secure field titled with a localized key.
    public nonisolated init(_ titleKey: LocalizedStringKey, text: Binding<String>) { standIn() }
}

/// `Image`.
@frozen public struct Image: _PrimitiveView, Equatable, Sendable {
    /// A system symbol.
    public nonisolated init(systemName: String) { standIn() }
}

/// `Label`.
public struct Label<Title: View, Icon: View>: _PrimitiveView {
    /// A label with a title and an icon.
    public nonisolated init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) { standIn() }
}

extension Label where Title == Text, Icon == Image {
    /// A label titled with a localized key and a system symbol.
    public nonisolated init(_ titleKey: LocalizedStringKey, systemImage name: String) { standIn() }
    /// A label titled `title` and a system symbol.
    @_disfavoredOverload public nonisolated init<S: StringProtocol>(_ title: S, systemImage name: String) { standIn() }
}

/// `ProgressView` (iOS 14.0, macOS 11.0).
@available(iOS 14.0, macOS 11.0, *)
public struct ProgressView<Label: View, CurrentValueLabel: View>: _PrimitiveView {}

@available(iOS 14.0, macOS 11.0, *)
extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    /// An indeterminate progress view.
    public nonisolated init() { standIn() }
}

/// `ContentUnavailableView` (iOS 17.0, macOS 14.0).
@available(iOS 17.0, macOS 14.0, *)
public struct ContentUnavailableView<Label: View, Description: View, Actions: View>: _PrimitiveView {
    /// A view with a label, a description and actions.
    public nonisolated init(
        @ViewBuilder label: () -> Label, @ViewBuilder description: () -> Description = { EmptyView() },
        @ViewBuilder actions: () -> Actions = { EmptyView() }
    ) { standIn() }
}

@available(iOS 17.0, macOS 14.0, *)
extension ContentUnavailableView where Label == SwiftUI.Label<Text, Image>, Description == Text?, Actions == EmptyView {
    /// A view titled with a localized key, a system symbol and a description.
    public nonisolated init(_ title: LocalizedStringKey, systemImage name: String, description: Text? = nil) { standIn() }
}

/// `Form`.
public struct Form<Content: View>: _PrimitiveView {
    /// A form of `content`.
    public nonisolated init(@ViewBuilder content: () -> Content) { standIn() }
}

/// `Section`.
public struct Section<Parent, Content, Footer>: _PrimitiveView {}

extension Section where Parent == EmptyView, Content: View, Footer: View {
    /// A section with a footer.
    public nonisolated init(@ViewBuilder content: () -> Content, @ViewBuilder footer: () -> Footer) { standIn() }
}

extension Section where Parent == EmptyView, Content: View, Footer == EmptyView {
    /// A section.
    public nonisolated init(@ViewBuilder content: () -> Content) { standIn() }
}

extension Section where Parent == Text, Content: View, Footer == EmptyView {
    /// A section with a localized header.
    public nonisolated init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) { standIn() }
}

/// `Group`.
public struct Group<Content>: _PrimitiveView {}

extension Group where Content: View {
    /// A group of `content`.
    public nonisolated init(@ViewBuilder content: () -> Content) { standIn() }
}

/// `ForEach`.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content>: _PrimitiveView {}

extension ForEach where ID == Data.Element.ID, Content: View, Data.Element: Identifiable {
    /// A view for each element of `data`.
    public nonisolated init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) { standIn() }
}

/// `NavigationPath` (iOS 16.0, macOS 13.0).
@available(iOS 16.0, macOS 13.0, *)
public struct NavigationPath {}

/// `NavigationStack` (iOS 16.0, macOS 13.0).
@available(iOS 16.0, macOS 13.0, *)
public struct NavigationStack<Data, Root: View>: _PrimitiveView {}

@available(iOS 16.0, macOS 13.0, *)
extension NavigationStack where Data == NavigationPath {
    /// A stack with `root` at its bottom.
    public nonisolated init(@ViewBuilder root: () -> Root) { standIn() }
}

// MARK: State

/// `DynamicProperty`.
public protocol DynamicProperty {}

/// `State`.
@frozen @propertyWrapper public struct State<Value>: DynamicProperty {
    /// State starting at `value`.
    public init(wrappedValue value: Value) { standIn() }
    /// The current value.
    public var wrappedValue: Value {
        get { standIn() }
        nonmutating set { standIn() }
    }
    /// A binding to the value.
    public var projectedValue: Binding<Value> { standIn() }
}

extension State where Value: ExpressibleByNilLiteral {
    /// State starting at nil.
    public init() { standIn() }
}

/// `Binding`.
@frozen @propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
    /// A binding reading with `get` and writing with `set`.
    @preconcurrency public init(
        @_inheritActorContext get: @escaping @isolated(any) @Sendable () -> Value,
        @_inheritActorContext set: @escaping @isolated(any) @Sendable (Value) -> Void
    ) { standIn() }
    /// The value.
    public var wrappedValue: Value {
        get { standIn() }
        nonmutating set { standIn() }
    }
    /// This binding.
    public var projectedValue: Binding<Value> { standIn() }
    /// A binding to a property of the value.
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> { standIn() }
}

extension Binding: @unchecked Sendable where Value: Sendable {}

/// `Bindable` (iOS 17.0, macOS 14.0).
@available(iOS 17.0, macOS 14.0, *)
@dynamicMemberLookup @propertyWrapper public struct Bindable<Value> {
    /// A bindable object.
    public init(wrappedValue: Value) where Value: AnyObject, Value: Observable { standIn() }
    /// The object.
    public var wrappedValue: Value {
        get { standIn() }
        set { standIn() }
    }
    /// This bindable object.
    public var projectedValue: Bindable<Value> { standIn() }
    /// A binding to a property of the object.
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject>
    where Value: AnyObject { standIn() }
}


/// `EnvironmentValues`.
public struct EnvironmentValues: CustomStringConvertible {
    /// The scene's phase.
    public var scenePhase: ScenePhase {
        get { standIn() }
        set { standIn() }
    }
    /// A description.
    public var description: String { standIn() }
}

/// `Environment`.
@frozen @propertyWrapper public struct Environment<Value>: DynamicProperty {
    /// The environment value at `keyPath`.
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { standIn() }
    /// The value.
    public var wrappedValue: Value { standIn() }
}

/// `ScenePhase` (iOS 14.0, macOS 11.0).
@available(iOS 14.0, macOS 11.0, *)
public enum ScenePhase: Comparable, Hashable, Sendable {
    /// Not visible.
    case background
    /// Visible, not taking events.
    case inactive
    /// In the foreground, taking events.
    case active
}

// MARK: Modifiers

extension View {
    /// `font(_:)`.
    public nonisolated func font(_ font: Font?) -> some View { ModifiedContent<Self, Font>() }
    /// `foregroundStyle(_:)` (iOS 15.0, macOS 12.0).
    @available(iOS 15.0, macOS 12.0, *)
    public nonisolated func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { ModifiedContent<Self, S>() }
    /// `disabled(_:)`.
    public nonisolated func disabled(_ disabled: Bool) -> some View { ModifiedContent<Self, Bool>() }
    /// `navigationTitle(_:)`.
    public nonisolated func navigationTitle(_ titleKey: LocalizedStringKey) -> some View { ModifiedContent<Self, Text>() }
    /// `toolbar(content:)`.
    public nonisolated func toolbar<Content: View>(@ViewBuilder content: () -> Content) -> some View { ModifiedContent<Self, Content>() }
    /// `sheet(isPresented:onDismiss:content:)`.
    public nonisolated func sheet<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> some View { ModifiedContent<Self, Content>() }
    /// `task(priority:_:)` (iOS 15.0, macOS 12.0): runs `action` before the view appears,
    /// cancels it when the view disappears.
    @available(iOS 15.0, macOS 12.0, *)
    public nonisolated func task(
        priority: TaskPriority = .userInitiated, @_inheritActorContext _ action: @escaping @Sendable () async -> Void
    ) -> some View { ModifiedContent<Self, Never>() }
    /// `onOpenURL(perform:)` (iOS 14.0, macOS 11.0).
    @available(iOS 14.0, macOS 11.0, *)
    public nonisolated func onOpenURL(perform action: @escaping (URL) -> Void) -> some View { ModifiedContent<Self, URL>() }
    /// `onContinueUserActivity(_:perform:)` (iOS 14.0, macOS 11.0).
    @available(iOS 14.0, macOS 11.0, *)
    public nonisolated func onContinueUserActivity(_ activityType: String, perform action: @escaping (NSUserActivity) -> Void) -> some View {
        ModifiedContent<Self, NSUserActivity>()
    }
    /// `onReceive(_:perform:)`.
    public nonisolated func onReceive<P: Publisher>(_ publisher: P, perform action: @escaping (P.Output) -> Void) -> some View
    where P.Failure == Never { ModifiedContent<Self, P>() }
    /// `onChange(of:initial:_:)` (iOS 17.0, macOS 14.0).
    @available(iOS 17.0, macOS 14.0, *)
    public nonisolated func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void)
        -> some View { ModifiedContent<Self, V>() }
}

#if LATCHKEY_CHECK_IOS
    /// `TextInputAutocapitalization` (iOS 15.0).
    @available(iOS 15.0, *)
    public struct TextInputAutocapitalization: Sendable {
        /// No automatic capitals.
        public static let never = TextInputAutocapitalization()
    }

    extension View {
        /// `textContentType(_:)` (iOS 13.0).
        public nonisolated func textContentType(_ textContentType: UITextContentType?) -> some View { ModifiedContent<Self, UITextContentType>() }
        /// `keyboardType(_:)` (iOS 13.0).
        public nonisolated func keyboardType(_ type: UIKeyboardType) -> some View { ModifiedContent<Self, UIKeyboardType>() }
        /// `textInputAutocapitalization(_:)` (iOS 15.0).
        @available(iOS 15.0, *)
        public nonisolated func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?) -> some View {
            ModifiedContent<Self, TextInputAutocapitalization>()
        }
    }
#endif

/// Never called: the stand-ins are only type-checked against.
func standIn() -> Never { fatalError("Apple stand-in: type-checking only") }
