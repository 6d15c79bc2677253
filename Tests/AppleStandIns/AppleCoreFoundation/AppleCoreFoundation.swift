// Stand-in for the CoreFoundation types Security's and Foundation's Apple declarations use.
// On Apple platforms these are CF types, toll-free bridged to the Foundation classes named
// here; Linux's CoreFoundation module has no bridging, so each is an alias of the Foundation
// class it is bridged to. What that cannot catch: a cast Darwin needs between a CF type and
// its NS twin (`nsString as CFString`) is an identity here (see Tests/AppleStandIns/README.md).
public import Foundation

/// `CFTypeRef` (`AnyObject` on Apple platforms too).
public typealias CFTypeRef = AnyObject
/// `CFString`, toll-free bridged to `NSString` and `String`.
public typealias CFString = NSString
/// `CFData`, toll-free bridged to `NSData` and `Data`.
public typealias CFData = NSData
/// `CFDictionary`, toll-free bridged to `NSDictionary` and `[AnyHashable: Any]`.
public typealias CFDictionary = NSDictionary
/// `CFArray`, toll-free bridged to `NSArray` and `[Any]`.
public typealias CFArray = NSArray
/// `CFError`, toll-free bridged to `NSError`.
public typealias CFError = NSError
/// `CFDate`, toll-free bridged to `NSDate` and `Date`.
public typealias CFDate = NSDate
/// `CFOptionFlags`.
public typealias CFOptionFlags = UInt
/// `OSStatus` (MacTypes.h).
public typealias OSStatus = Int32

/// `CFAllocator`: only ever passed as nil here.
public final class CFAllocator {
    private init() {}
}
