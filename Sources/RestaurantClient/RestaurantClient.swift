/// Typed async access to svcd's use cases for other Swift services.
public enum RestaurantClientModule {}
